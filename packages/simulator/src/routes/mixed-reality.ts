import { answered, withResult } from './answers.js';
import { JsonFields } from './json-fields.js';
import type { FamilyRoutes } from './route.js';

/** Spec 4.3. */
export const mixedRealityRoutes = {
  cameras: (_request, state) => withResult(state.mixedReality.cameras()),
  mrSets: (_request, state) => withResult(state.mixedReality.mrSets()),
  spatialCalibrations: (_request, state) => withResult(state.mixedReality.spatialCalibrations()),
  captureProgress: (_request, state) => withResult(state.mixedReality.captureInProgress()),
  captureObservation: (request, state) => {
    const body = JsonFields.body(request);
    state.mixedReality.captureObservation(body.ref('camera'), body.ref('spatialCalibration'));
    return answered();
  },
  deleteAllObservations: (request, state) => {
    state.mixedReality.deleteAllObservations(JsonFields.body(request).ref('spatialCalibration'));
    return answered();
  },
  deleteObservations: (request, state) => {
    state.mixedReality.deleteObservations(JsonFields.body(request).texts('observations'));
    return answered();
  },
  enableObservations: (request, state) => {
    const changes = JsonFields.body(request)
      .items('observations')
      .map((item) => ({ uid: item.text('uid'), enable: item.boolean('enable') }));
    state.mixedReality.enableObservations(changes);
    return answered();
  },
  selectCamera: (request, state) => {
    const body = JsonFields.body(request);
    state.mixedReality.selectCamera(body.ref('mrSet'), body.ref('cameraOverride'));
    return answered();
  },
  selectSpatialCalibration: (request, state) => {
    const body = JsonFields.body(request);
    state.mixedReality.selectSpatialCalibration(body.ref('camera'), body.ref('spatialCalibration'));
    return answered();
  },
} satisfies FamilyRoutes;
