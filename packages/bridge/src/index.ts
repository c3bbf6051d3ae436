export { startBridge, type Bridge } from './bridge.js';
export { OptionError, resolveOptions, type BridgeOptions, type ResolvedBridgeOptions } from './options.js';
export { Topics, topicSegment, defaultPrefix } from './topics.js';
export { COMMAND_REFUSALS, CommandRefusedError, type CommandRefusalCode } from './command-errors.js';
export { FAILOVER_COMMANDS, type FailoverCommand } from './commands.js';
export type { CommandResult } from './command-result.js';
export type { OscInCounts } from './osc-in.js';
export { lineLog, silentLog, type BridgeLog, type LogFormat } from './log.js';
export type { MachineSummary, SummaryFps, SummaryHealth, SummaryPayload } from './summary.js';
