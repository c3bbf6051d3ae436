import type { EndpointName } from '@stagelink/core';
import { colourRoutes } from './colour.js';
import { failoverRoutes } from './failover.js';
import { hardwareRoutes } from './hardware.js';
import { looksRoutes } from './looks.js';
import { mediaRoutes } from './media.js';
import { mixedRealityRoutes } from './mixed-reality.js';
import { notesRoutes } from './notes.js';
import { quickcalRoutes } from './quickcal.js';
import { renderStreamRoutes } from './renderstream.js';
import type { RouteHandler } from './route.js';
import { sequencingRoutes } from './sequencing.js';
import { shotRecorderRoutes } from './shot-recorder.js';
import { statusRoutes } from './status.js';
import { systemRoutes } from './system.js';
import { transportRoutes } from './transport.js';

/** One handler per catalogue entry: the type refuses to compile while an endpoint of the catalogue has none. */
export const routeHandlers: Readonly<Record<EndpointName, RouteHandler>> = {
  ...statusRoutes,
  ...transportRoutes,
  ...mixedRealityRoutes,
  ...quickcalRoutes,
  ...failoverRoutes,
  ...sequencingRoutes,
  ...notesRoutes,
  ...shotRecorderRoutes,
  ...looksRoutes,
  ...colourRoutes,
  ...mediaRoutes,
  ...systemRoutes,
  ...hardwareRoutes,
  ...renderStreamRoutes,
};

export type { Answer, RouteHandler, SimRequest } from './route.js';
