import { answered } from './answers.js';
import { JsonFields } from './json-fields.js';
import type { FamilyRoutes } from './route.js';

/** Spec 4.5. */
export const failoverRoutes = {
  applyDefaultRouting: (_request, state) => {
    state.failover.applyDefaultRouting();
    return answered();
  },
  failoverMachine: (request, state) => {
    state.failover.failoverMachine(JsonFields.body(request).ref('machine'));
    return answered();
  },
  restoreMachine: (request, state) => {
    state.failover.restoreMachine(JsonFields.body(request).ref('machine'));
    return answered();
  },
  failoverSettings: (_request, state) => answered({ ...state.failover.settings() }),
  understudyTargets: (_request, state) => answered({ understudies: state.failover.understudyTargets() }),
} satisfies FamilyRoutes;
