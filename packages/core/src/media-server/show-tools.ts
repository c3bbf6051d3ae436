import { endpoints } from './catalogue.js';
import type { CallOptions, EndpointCaller, GuardedCallOptions } from './endpoint-caller.js';
import { checkBoolean, checkText } from './input-checks.js';
import type { PythonModule, PythonScript, SockpuppetPatch } from './types.js';

/** Sockpuppet: fields of a show's layers changed live. */
export class SockpuppetApi {
  constructor(private readonly api: EndpointCaller) {}

  async live(request: { patches: SockpuppetPatch[] }, options?: CallOptions): Promise<void> {
    await this.api.call(endpoints.sockpuppetLive, { body: { patches: request.patches } }, options);
  }
}

/** OmniCal: camera discovery and rig checks. A rig check plan moves the rig, so it is guarded. */
export class OmnicalApi {
  constructor(private readonly api: EndpointCaller) {}

  async cameraDiscovery(enabled: boolean, options?: CallOptions): Promise<void> {
    await this.api.call(endpoints.cameraDiscovery, { body: { enabled: checkBoolean(enabled, 'enabled') } }, options);
  }

  async rigCheckAcceptResult(body: Record<string, unknown>, options?: CallOptions): Promise<void> {
    await this.api.call(endpoints.rigCheckAcceptResult, { body }, options);
  }

  async rigCheckDeleteOldResults(body: Record<string, unknown> = {}, options?: CallOptions): Promise<void> {
    await this.api.call(endpoints.rigCheckDeleteOldResults, { body }, options);
  }

  async rigCheckExecutePlan(body: Record<string, unknown>, options?: GuardedCallOptions): Promise<void> {
    await this.api.call(endpoints.rigCheckExecutePlan, { body }, options);
  }

  async rigCheckRevertResult(body: Record<string, unknown>, options?: CallOptions): Promise<void> {
    await this.api.call(endpoints.rigCheckRevertResult, { body }, options);
  }
}

/**
 * Python on the director: arbitrary code, unauthenticated. Refused unless the client has `allowPython: true`,
 * and each call needs `{ confirm: true }`.
 */
export class PythonApi {
  constructor(private readonly api: EndpointCaller) {}

  async execute(request: PythonScript, options?: GuardedCallOptions): Promise<unknown> {
    const body = { ...(request.moduleName !== undefined ? { moduleName: checkText(request.moduleName, 'moduleName') } : {}), script: checkText(request.script, 'script') };
    return this.api.call(endpoints.pythonExecute, { body }, options);
  }

  async registerModule(request: PythonModule, options?: GuardedCallOptions): Promise<void> {
    await this.api.call(endpoints.pythonRegisterModule, { body: { moduleName: checkText(request.moduleName, 'moduleName'), contents: checkText(request.contents, 'contents') } }, options);
  }
}
