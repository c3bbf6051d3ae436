import { answered, withResult } from './answers.js';
import { JsonFields } from './json-fields.js';
import { queryRef } from './query.js';
import type { FamilyRoutes } from './route.js';

/** Spec 4.6. */
export const sequencingRoutes = {
  changeIndirections: (request, state) => {
    const changes = JsonFields.body(request)
      .items('changes')
      .map((item) => ({ indirection: item.ref('indirection'), resource: item.ref('resource') }));
    state.sequencing.change(changes);
    return answered();
  },
  indirectionResources: (request, state) => withResult(state.sequencing.resources(queryRef(request))),
  indirections: (_request, state) => withResult(state.sequencing.indirections()),
} satisfies FamilyRoutes;
