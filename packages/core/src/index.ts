export * from './errors.js';
export type { Logger } from './http/logger.js';
export { originOf } from './http/host.js';
export { fullJitter } from './http/backoff.js';
export { MediaServer, type MediaServerOptions } from './media-server/media-server.js';
export type { CallOptions, GuardedCallOptions, EndpointInput, EndpointCaller } from './media-server/endpoint-caller.js';
export {
  endpoints,
  endpointList,
  TRANSPORT_REF_COMMANDS,
  OLED_MAX_MESSAGE_LENGTH,
  OLED_DEFAULT_DISPLAY_SECONDS,
  type EndpointSpec,
  type EndpointName,
  type ApiFamily,
  type HttpMethod,
} from './media-server/catalogue.js';
export type * from './media-server/transport.js';
export type { OledResult } from './media-server/hardware.js';
export type * from './media-server/types.js';
