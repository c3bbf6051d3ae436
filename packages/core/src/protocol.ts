/**
 * `@stagelink/core/protocol`: the wire as the simulator, the benchmarks and the front ends' plumbing see it (paths,
 * frames, service types, pagination defaults), and the process plumbing the command-line tools share.
 * Applications need only `@stagelink/core`.
 */
export { fullJitter } from './http/backoff.js';
export {
  DIRECTOR_SERVICE_TYPE,
  API_SERVICE_TYPE,
  SHIPPING_DIRECTOR_SERVICE_TYPE,
  HOST_SERVICE_TYPE,
  HTTP_SERVICE_TYPE,
  API_INSTANCE_NAME,
  numberedInstance,
  type DirectorTxt,
  type HostTxt,
} from './discovery/service-names.js';
export { onMdnsSocketError } from './discovery/dnssd.js';
export { parseTxtRecord } from './discovery/txt-record.js';
export { API_DESCRIPTION_PATH } from './media-server/api-description.js';
export { TRANSPORT_REF_COMMANDS } from './media-server/catalogue.js';
export type { EndpointCaller } from './media-server/endpoint-caller.js';
export type { Envelope } from './media-server/types.js';
export {
  LIVE_UPDATE_PATH,
  isPropertyError,
  type ClientFrame,
  type ServerFrame,
  type SubscribeFrame,
  type UnsubscribeFrame,
  type SubscriptionEntry,
  type ValueChange,
  type PropertyErrorValue,
} from './live/protocol.js';
export { DEFAULT_PER_PAGE, NOT_FOUND_MESSAGES, type DriveErrorBody, type VersionUpdateBody } from './drive/types.js';
export { runCommandLine, untilStopped } from './cli/command-line.js';
