import { endpoints } from './catalogue.js';
import type { CallOptions, EndpointCaller } from './endpoint-caller.js';
import type { DetectedSystem, OsInfo, ServiceVfc } from './types.js';

export class SystemApi {
  constructor(private readonly api: EndpointCaller) {}

  /** Every machine on the network with its software versions and running processes. */
  async detectSystems(options?: CallOptions): Promise<DetectedSystem[]> {
    return this.api.call(endpoints.detectSystems, {}, options);
  }

  async osInfo(options?: CallOptions): Promise<OsInfo[]> {
    return this.api.call(endpoints.osInfo, {}, options);
  }

  /** Empty on hardware of other makes. */
  async vfcs(options?: CallOptions): Promise<ServiceVfc[]> {
    return this.api.call(endpoints.serviceVfcs, {}, options);
  }
}
