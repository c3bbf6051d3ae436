import type { Envelope, FailoverSettings, Ref, UnderstudyTargets } from './types.js';
import { endpoints } from './catalogue.js';
import type { CallOptions, EndpointCaller } from './endpoint-caller.js';
import { checkRef } from './input-checks.js';

export class FailoverApi {
  constructor(private readonly api: EndpointCaller) {}

  async applyDefaultRouting(options?: CallOptions): Promise<void> {
    await this.api.call(endpoints.applyDefaultRouting, {}, options);
  }

  /** An understudy takes over the actor machine. */
  async failoverMachine(machine: Ref, options?: CallOptions): Promise<void> {
    await this.api.call(endpoints.failoverMachine, { body: { machine: checkRef(machine, 'machine') } }, options);
  }

  /** Restores a failed-over actor; default routing comes back with applyDefaultRouting. */
  async restoreMachine(machine: Ref, options?: CallOptions): Promise<void> {
    await this.api.call(endpoints.restoreMachine, { body: { machine: checkRef(machine, 'machine') } }, options);
  }

  async settings(options?: CallOptions): Promise<FailoverSettings> {
    const { timeout, normalPreset, currentPreset } = await this.api.call<FailoverSettings & Envelope>(endpoints.failoverSettings, {}, options);
    return { timeout, normalPreset, currentPreset };
  }

  async understudyTargets(options?: CallOptions): Promise<UnderstudyTargets> {
    return this.api.call(endpoints.understudyTargets, {}, options);
  }
}
