import { answered, withResult } from './answers.js';
import { JsonFields } from './json-fields.js';
import type { FamilyRoutes } from './route.js';

/** Spec 4.8, colour. The CDL is found by its uid or name; the values present replace its values. */
export const colourRoutes = {
  setCdl: (request, state) => {
    const cdl = JsonFields.body(request).object('cdl');
    state.colour.set({
      uid: cdl.optionalText('uid'),
      name: cdl.optionalText('name'),
      slope: cdl.optionalVec3('slope'),
      offset: cdl.optionalVec3('offset'),
      power: cdl.optionalVec3('power'),
      saturation: cdl.optionalNumber('saturation'),
    });
    return answered();
  },
  cdls: (_request, state) => withResult(state.colour.list()),
} satisfies FamilyRoutes;
