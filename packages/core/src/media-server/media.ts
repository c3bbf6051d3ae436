import { endpoints } from './catalogue.js';
import type { CallOptions, EndpointCaller } from './endpoint-caller.js';
import { checkText } from './input-checks.js';
import type { MediaFile, ProvisionRequest, ProvisionTaskResult } from './types.js';

/** Media files of the host service: works without a running session. */
export class MediaApi {
  constructor(private readonly api: EndpointCaller) {}

  /** Every file below `directory`, recursively. */
  async list(directory: string, options?: CallOptions): Promise<MediaFile[]> {
    return this.api.call(endpoints.listMedia, { query: { directory } }, options);
  }

  async provision(request: ProvisionRequest, options?: CallOptions): Promise<ProvisionTaskResult[]> {
    return this.api.call(endpoints.provision, { body: request }, options);
  }

  /** Removes a file or folder; answers the uid of the removal task. */
  async remove(path: string, options?: CallOptions): Promise<string> {
    return this.api.call(endpoints.removeMedia, { body: { path: checkText(path, 'path') } }, options);
  }
}
