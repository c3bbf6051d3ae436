import { endpoints } from './catalogue.js';
import type { CallOptions, EndpointCaller } from './endpoint-caller.js';
import type { ShotRecorder } from './types.js';

export class ShotRecorderApi {
  constructor(private readonly api: EndpointCaller) {}

  /** `engage: true` starts recording, `false` stops it. */
  async record(request: { engage: boolean; name: string; slate: string; take: number }, options?: CallOptions): Promise<void> {
    await this.api.call(endpoints.record, { body: request }, options);
  }

  async recorders(options?: CallOptions): Promise<ShotRecorder[]> {
    return this.api.call(endpoints.recorders, {}, options);
  }
}
