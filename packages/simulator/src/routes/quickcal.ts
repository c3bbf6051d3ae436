import { answered, withResult } from './answers.js';
import { JsonFields } from './json-fields.js';
import { queryRef } from './query.js';
import type { FamilyRoutes } from './route.js';

/** Spec 4.4. */
export const quickcalRoutes = {
  lineupCurrentPose: (request, state) => {
    const body = JsonFields.body(request);
    state.quickcal.lineupCurrentPose(body.ref('projector'), body.ref('referencePoint'), body.vec2('position'));
    return answered();
  },
  overwriteManualCalibration: (request, state) => {
    state.quickcal.overwriteManualCalibration(JsonFields.body(request).ref('projector'));
    return answered();
  },
  resetLineup: (request, state) => {
    state.quickcal.resetLineup(JsonFields.body(request).ref('projector'));
    return answered();
  },
  projectorCalibration: (request, state) => answered({ info: state.quickcal.projectorCalibration(queryRef(request)) }),
  referencePoints: (_request, state) => withResult(state.quickcal.referencePoints()),
} satisfies FamilyRoutes;
