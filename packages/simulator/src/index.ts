export { startSimulator, type Simulator } from './simulator.js';
export {
  BACK_TO_BACK_MS,
  DEFAULT_SEED,
  DIALECT_ENV,
  DIALECTS,
  OptionError,
  SCENARIOS,
  VENUE_MACHINES,
  VENUE_TRANSPORTS,
  type Dialect,
  type ResolvedOptions,
  type Scenario,
  type SimulatorOptions,
} from './options.js';
export { CONTROL_PATH, ControlPanel, type ControlAction } from './control.js';
export { simControl, type ControlRequest } from './control-client.js';
export type { SimulatorSummary, StateSummary } from './summary.js';
export { Faults, type FailNext } from './faults.js';
export { jsonLines, silentLog, type LogEntry, type LogSink } from './log.js';
export { takeLoopbackDnssdTurn } from './dnssd/loopback-turn.js';
export { routeHandlers } from './routes/index.js';
export type { Answer, RouteHandler, SimRequest } from './routes/route.js';
export { SessionState, type ModelScenario, type SessionStateOptions } from './state/session-state.js';
export type { Clock } from './state/clock.js';
export { PLAYMODES, type Playmode } from './state/playmodes.js';
export { FRAME_RATE, TIMECODE_TAG } from './state/cues.js';
export { CAPTURE_DURATION_MS } from './state/mixed-reality.js';
export { Refusal, StatusCode } from './state/refusal.js';
export { MAX_UINT64_UID } from './state/uids.js';
export { SeededRandom } from './state/random.js';
export { SIDE_SCREENS_UID } from './state/seed/show.js';
export { LiveUpdateServer, type LiveFaults, type LiveStats, type LiveWorld, type SentValue, type SubscribedValue } from './live/index.js';
export { startDriveService, type DriveService } from './drive/drive-service.js';
