import { answered, withResult } from './answers.js';
import { JsonFields } from './json-fields.js';
import type { FamilyRoutes } from './route.js';

/** Spec 4.1. */
export const statusRoutes = {
  health: (_request, state) => withResult(state.words.health(state.health())),
  notifications: (_request, state) => withResult(state.notifications()),
  project: (_request, state) => withResult(structuredClone(state.project)),
  session: (_request, state) => withResult(state.machines.sessionInfo()),
  setGuiMode: (request, state) => {
    const body = JsonFields.body(request);
    state.machines.setGuiMode(body.ref('machine'), body.text('mode'));
    return answered();
  },
} satisfies FamilyRoutes;
