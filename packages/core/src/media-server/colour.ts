import { endpoints } from './catalogue.js';
import type { CallOptions, EndpointCaller } from './endpoint-caller.js';
import type { Cdl } from './types.js';

export class ColourApi {
  constructor(private readonly api: EndpointCaller) {}

  async setCdl(cdl: Cdl, options?: CallOptions): Promise<void> {
    await this.api.call(endpoints.setCdl, { body: { cdl } }, options);
  }

  async cdls(options?: CallOptions): Promise<Cdl[]> {
    return this.api.call(endpoints.cdls, {}, options);
  }
}
