import { originOf } from '../http/host.js';
import { HttpClient } from '../http/http-client.js';
import { silentLogger, type Logger } from '../http/logger.js';
import { ColourApi } from './colour.js';
import { EndpointCaller } from './endpoint-caller.js';
import { FailoverApi } from './failover.js';
import { HardwareApi } from './hardware.js';
import { LooksApi } from './looks.js';
import { MediaApi } from './media.js';
import { MixedRealityApi } from './mixed-reality.js';
import { NotesApi } from './notes.js';
import { QuickcalApi } from './quickcal.js';
import { SequencingApi } from './sequencing.js';
import { ShotRecorderApi } from './shot-recorder.js';
import { StatusApi } from './status.js';
import { SystemApi } from './system.js';
import { TransportApi } from './transport.js';
import { LiveClient } from '../live/live-client.js';
import type { LiveSocketTiming } from '../live/live-socket.js';

export interface MediaServerOptions {
  /** A hostname, `host:port` or `http://` URL; the port defaults to 80. */
  host: string;
  /** Deadline of one call, retries included (default 5000 ms). */
  timeoutMs?: number;
  /** Retries of a retryable failure (default 2). */
  retries?: number;
  logger?: Logger;
  /** Live-update timing: connect timeout, heartbeat and reconnect back-off. */
  live?: Partial<LiveSocketTiming>;
}

/**
 * One media server: every endpoint family of the spec, grouped as the spec groups them, over one keep-alive
 * connection pool, and the live-update stream. Close it when done.
 */
export class MediaServer {
  readonly origin: string;
  readonly status: StatusApi;
  readonly transport: TransportApi;
  readonly mixedReality: MixedRealityApi;
  readonly quickcal: QuickcalApi;
  readonly failover: FailoverApi;
  readonly sequencing: SequencingApi;
  readonly notes: NotesApi;
  readonly shotRecorder: ShotRecorderApi;
  readonly looks: LooksApi;
  readonly colour: ColourApi;
  readonly media: MediaApi;
  readonly system: SystemApi;
  readonly hardware: HardwareApi;
  /** The live-update stream: one socket, shared by every subscription. */
  readonly live: LiveClient;
  /** Sends any catalogue endpoint: what the Node-RED request node uses. */
  readonly endpoints: EndpointCaller;
  readonly #http: HttpClient;

  constructor(options: MediaServerOptions) {
    this.origin = originOf(options.host);
    this.#http = new HttpClient({ baseUrl: this.origin, timeoutMs: options.timeoutMs, retries: options.retries });
    const api = new EndpointCaller(this.#http);
    const logger = options.logger ?? silentLogger;
    this.endpoints = api;
    this.status = new StatusApi(api);
    this.transport = new TransportApi(api);
    this.mixedReality = new MixedRealityApi(api);
    this.quickcal = new QuickcalApi(api);
    this.failover = new FailoverApi(api);
    this.sequencing = new SequencingApi(api);
    this.notes = new NotesApi(api);
    this.shotRecorder = new ShotRecorderApi(api);
    this.looks = new LooksApi(api);
    this.colour = new ColourApi(api);
    this.media = new MediaApi(api);
    this.system = new SystemApi(api);
    this.hardware = new HardwareApi(api, logger);
    this.live = new LiveClient(() => this.origin, options.live ?? {}, logger);
  }

  /** Closes every live subscription, the live socket and the connection pool. Safe to call more than once. */
  async close(): Promise<void> {
    await Promise.all([this.live.close(), this.#http.close()]);
  }
}
