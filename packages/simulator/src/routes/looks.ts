import { withResult } from './answers.js';
import type { FamilyRoutes } from './route.js';

/** Spec 4.8, looks. */
export const looksRoutes = {
  looks: (_request, state) => withResult(state.looks.list()),
} satisfies FamilyRoutes;
