import { withResult } from './answers.js';
import type { FamilyRoutes } from './route.js';

/** Spec 4.10 (service family). */
export const systemRoutes = {
  detectSystems: (_request, state) => withResult(state.system.detectSystems()),
  osInfo: (_request, state) => withResult(state.system.osInfo()),
  serviceVfcs: (_request, state) => withResult(state.serviceVfcs()),
} satisfies FamilyRoutes;
