import { answered, withResult } from './answers.js';
import { JsonFields } from './json-fields.js';
import type { FamilyRoutes, SimRequest } from './route.js';

/**
 * What a shipping r34 director offers beyond the documents: RenderStream layers modelled, the others accepted
 * with their bodies checked (their effects are outside what the simulator models).
 */
export const renderStreamRoutes = {
  renderStreamLayers: (_request, state) => withResult(state.renderStream.layers()),
  startLayers: (request, state) => {
    state.renderStream.start(JsonFields.body(request).refs('layers'));
    return answered();
  },
  stopLayers: (request, state) => {
    state.renderStream.stop(JsonFields.body(request).refs('layers'));
    return answered();
  },
  restartLayers: (request, state) => {
    state.renderStream.restart(JsonFields.body(request).refs('layers'));
    return answered();
  },
  syncLayers: (request, state) => {
    state.renderStream.sync(JsonFields.body(request).refs('layers'));
    return answered();
  },
  renderStreamFailover: (request, state) => {
    const machine = JsonFields.body(request).ref('machine');
    state.machines.find(machine);
    return answered();
  },
  renderStreamFailoverPool: (request, state) => {
    state.renderStream.failoverPool(JsonFields.body(request).ref('layer'));
    return answered();
  },
  sockpuppetLive: (request) => {
    for (const patch of JsonFields.body(request).items('patches')) {
      patch.text('address');
      for (const change of patch.items('changes')) change.text('field');
    }
    return answered();
  },
  cameraDiscovery: (request) => {
    JsonFields.body(request).boolean('enabled');
    return answered();
  },
  rigCheckAcceptResult: (request) => objectBody(request),
  rigCheckDeleteOldResults: (request) => objectBody(request),
  rigCheckExecutePlan: (request) => objectBody(request),
  rigCheckRevertResult: (request) => objectBody(request),
  // Never runs anything: answers as a director that ran the script and printed nothing.
  pythonExecute: (request) => {
    const body = JsonFields.body(request);
    body.text('script');
    return answered({ result: { output: '' } });
  },
  pythonRegisterModule: (request) => {
    const body = JsonFields.body(request);
    body.text('moduleName');
    body.text('contents');
    return answered();
  },
} satisfies FamilyRoutes;

function objectBody(request: SimRequest) {
  JsonFields.body(request);
  return answered();
}
