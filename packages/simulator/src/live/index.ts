export { LiveUpdateServer, type LiveFaults, type LiveStats } from './live-server.js';
export type { SentValue, SubscribedValue } from './live-session.js';
export type { LiveWorld } from './expressions.js';
export { LiveLayers } from './layers.js';
export { registerLiveActions } from './control-actions.js';
