import { endpoints } from './catalogue.js';
import type { CallOptions, EndpointCaller } from './endpoint-caller.js';
import type { Look } from './types.js';

export class LooksApi {
  constructor(private readonly api: EndpointCaller) {}

  async list(options?: CallOptions): Promise<Look[]> {
    return this.api.call(endpoints.looks, {}, options);
  }
}
