import { endpoints } from './catalogue.js';
import type { CallOptions, EndpointCaller } from './endpoint-caller.js';
import { checkRef, refQuery } from './input-checks.js';
import type { Indirection, NamedRef, Ref } from './types.js';

export class SequencingApi {
  constructor(private readonly api: EndpointCaller) {}

  async changeIndirections(changes: readonly { indirection: Ref; resource: Ref }[], options?: CallOptions): Promise<void> {
    const body = {
      changes: changes.map((change) => ({
        indirection: checkRef(change.indirection, 'indirection'),
        resource: checkRef(change.resource, 'resource'),
      })),
    };
    await this.api.call(endpoints.changeIndirections, { body }, options);
  }

  async indirectionResources(indirection: Ref, options?: CallOptions): Promise<NamedRef[]> {
    return this.api.call(endpoints.indirectionResources, { query: refQuery(indirection, 'indirection') }, options);
  }

  async indirections(options?: CallOptions): Promise<Indirection[]> {
    return this.api.call(endpoints.indirections, {}, options);
  }
}
