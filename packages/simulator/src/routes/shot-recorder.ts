import { answered } from './answers.js';
import { JsonFields } from './json-fields.js';
import type { FamilyRoutes } from './route.js';

/** Spec 4.8, shot recorder. */
export const shotRecorderRoutes = {
  record: (request, state) => {
    const body = JsonFields.body(request);
    state.shotRecorder.record({
      engage: body.boolean('engage'),
      name: body.optionalText('name'),
      slate: body.optionalText('slate'),
      take: body.optionalNumber('take'),
    });
    return answered();
  },
  recorders: (_request, state) => answered({ recorders: state.shotRecorder.recorders() }),
} satisfies FamilyRoutes;
