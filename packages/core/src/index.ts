export * from './errors.js';
export { LOG_EVENT_CODES, type LogEvent, type LogEventCode, type Logger } from './http/logger.js';
export type { TlsOptions } from './http/tls.js';
export { originOf, parseHostList, parseInterfaceAddress } from './http/host.js';
export { MediaServer, type MediaServerOptions } from './media-server/media-server.js';
export { discoverDirector, type DiscoverOptions, type DiscoveredDirector } from './discovery/discover.js';
export { discoverMachines, type DiscoverMachinesOptions, type DiscoveredMachine } from './discovery/discover-machines.js';
export type { DirectorChange } from './discovery/director-follower.js';
export type { LinkDown } from './media-server/link-watch.js';
export { CueLane, type CueLaneOptions, type CueSendOptions } from './media-server/cue-lane.js';
export { CUE_FATES, cueFateOf, type CueFate } from './media-server/cue-fate.js';
export { parseHostMap, type HostMap } from './discovery/query.js';
export type { CallOptions, GuardedCallOptions, EndpointInput } from './media-server/endpoint-caller.js';
export type { RequestOptions } from './http/request-options.js';
export {
  endpoints,
  endpointList,
  FAILOVER_OPERATIONS,
  FAILOVER_MACHINE_OPERATIONS,
  isFailoverOperation,
  needsConfirmation,
  type FailoverOperation,
  OLED_MAX_MESSAGE_LENGTH,
  OLED_DEFAULT_DISPLAY_SECONDS,
  type BodyField,
  type EndpointSpec,
  type EndpointName,
  type ApiFamily,
  type HttpMethod,
} from './media-server/catalogue.js';
export type * from './media-server/transport.js';
export { TAG_TYPES } from './media-server/transport.js';
export {
  TRANSPORT_COMMANDS,
  TRANSPORT_COMMAND_NAMES,
  TRANSPORT_COMMAND_LABELS,
  TRANSPORT_FIELDS,
  TRANSPORT_FIELD_LABELS,
  isTransportCommand,
  readTransportFields,
  transportFieldsOf,
  type TransportCommand,
  type TransportFieldKind,
  type TransportFieldUse,
  type TransportFieldsReading,
  type TransportCommandFields,
  type TransportCommandShape,
  type TransportField,
} from './media-server/transport-commands.js';
export { endpointNamed, transportCommandNamed, failoverOperationNamed, type OperationWord } from './media-server/operation-names.js';
export { PLAYMODES, PLAYMODE_COMMANDS, PLAYMODE_LABELS, isPlaying, toPlaymode, playmodeToSend, type Playmode, type RequestedPlaymode } from './media-server/playmode.js';
export { powerFaultOf, readPowerStatus, type HardwareApi, type OledResult } from './media-server/hardware.js';
export {
  MachineHardware,
  parseSmcMap,
  type HardwareCallOptions,
  type HardwareMachine,
  type SmcAccounts,
  type SmcMap,
  type SmcTarget,
  type WatchHardware,
} from './media-server/hardware-targets.js';
export { DEFAULT_HARDWARE_EVERY_MS, MIN_HARDWARE_EVERY_MS, type HardwareWatch, type HardwareWatchOptions } from './hardware-health/hardware-watches.js';
export { DEFAULT_LAYERS_EVERY_MS, MIN_LAYERS_EVERY_MS, type LayersSnapshot, type LayersWatch } from './media-server/layer-watch.js';
export { hardwareFaultWord, hardwareSummaryOf, type HardwareSnapshot, type HardwareStatus } from './hardware-health/hardware-snapshot.js';
export {
  DEFAULT_HARDWARE_THRESHOLDS,
  hardwareThresholds,
  judgeReadings,
  type HardwareSeverity,
  type HardwareThresholds,
  type HardwareVerdict,
  type SensorLimits,
} from './hardware-health/judge.js';
export { readCelsius, readFlag, readHardware, readRpm, type FanReading, type HardwareReadings, type OutputCardReading, type TemperatureReading } from './hardware-health/readings.js';
export type { ApiDescription } from './media-server/api-description.js';
export type { CommandName, DescribedCommand, DirectorDescription } from './media-server/described-commands.js';
export { LAYER_OPERATION_COMMANDS, LAYER_OPERATIONS, layerNamed, type LayerOperation, type RenderStreamApi } from './media-server/renderstream.js';
export type { OmnicalApi, PythonApi, SockpuppetApi } from './media-server/show-tools.js';
export { SmcClient, type SmcOptions } from './media-server/smc-client.js';
export type * from './media-server/types.js';
export { LiveClient, LiveSubscription, type LiveSubscribeOptions } from './live/live-client.js';
export type { LinkStatus, LiveSocketTiming } from './live/live-socket.js';
export type { LiveStatus, LiveTiming } from './live/live-client.js';
export { DEFAULT_LIVENESS_TIMING, type LivenessTiming } from './live/liveness.js';
export type { LiveValue } from './live/subscription-registry.js';
export { fpsMachineOf, livePresets, machineFps, type LiveRequest, type LivePresetName } from './live/presets.js';
export { formatClock, type FormatClockOptions } from './show-clock/format-clock.js';
export type { ShowClockSnapshot, ClockStatus, TransportWatch, WatchOptions } from './show-clock/transport-clock.js';
export type { ClockCue } from './show-clock/clock-math.js';
export { LIVE_PRESET_PARAMETERS, isLivePresetName, livePresetRequest, type PresetParameter } from './live/preset-parameters.js';
export { RollingAverage, ALERT_AVERAGE_WINDOW } from './live/rolling-average.js';
export { Throttle, type Clock } from './live/throttle.js';
export { classifyFps, worstSeverity, worstHealth, healthOf, severityRank, type FpsAlert } from './live/alerts.js';
export { sessionMachines, type MachineRole, type SessionMember } from './media-server/session-machines.js';
export { variableIdOf, VariableIds } from './variable-ids.js';
export { multitransportMembers } from './media-server/multitransport.js';
export type { ValueChange, PropertyErrorValue } from './live/protocol.js';
export * from './drive/index.js';
export * from './show-log/index.js';
