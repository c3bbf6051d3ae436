import { withResult } from './answers.js';
import { JsonFields } from './json-fields.js';
import { queryCount, queryRef } from './query.js';
import type { FamilyRoutes } from './route.js';

/** Spec 4.7. */
export const notesRoutes = {
  getNote: (request, state) => withResult(state.notes.get(queryRef(request))),
  setNote: (request, state) => {
    const body = JsonFields.body(request);
    return withResult(state.notes.set(body.ref('note'), body.text('text')));
  },
  listNotes: (request, state) => withResult(state.notes.list(queryCount(request, 'start') ?? 0, queryCount(request, 'count') ?? 0)),
} satisfies FamilyRoutes;
