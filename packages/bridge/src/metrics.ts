import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { reasonOf, severityRank } from '@stagelink/core';
import { Counter, Gauge, Registry } from 'prom-client';
import { COMMAND_REFUSALS } from './command-errors.js';
import type { CommandResult } from './command-result.js';
import type { BridgeLog } from './log.js';
import type { StatePayload } from './retained-state.js';

/** Where `/metrics` is served. */
export interface MetricsListen {
  address: string;
  port: number;
}

/** The severities a machine's health is published with, in core's order (severityRank): the gauge's values. */
export const HEALTH_SEVERITIES = ['ok', 'busy', 'warning', 'error', 'offline'] as const;

/** How a command ended, as `stagelink_commands_total` counts it. */
export type CommandOutcome = 'ok' | 'failed' | 'late_landed' | 'late_unknown' | 'refused' | 'duplicate';
const COMMAND_OUTCOMES: readonly CommandOutcome[] = ['ok', 'failed', 'late_landed', 'late_unknown', 'refused', 'duplicate'];
export type CommandVia = 'mqtt' | 'osc';
const REFUSAL_CODES = new Set<string>(Object.values(COMMAND_REFUSALS));
/** The session poller's reads (the `read` label of `stagelink_poll_errors_total`). */
const POLL_READS = ['session', 'health', 'transports'] as const;

/** A command's result in the counter's words: refused before sending, a late cue's outcome, ok or failed. */
export function commandOutcome(result: CommandResult): CommandOutcome {
  if (result.duplicate) return 'duplicate';
  if (result.ok) return 'ok';
  if (result.outcome === 'landed') return 'late_landed';
  if (result.outcome === 'unknown') return 'late_unknown';
  if (result.code !== undefined && REFUSAL_CODES.has(result.code)) return 'refused';
  return 'failed';
}

/** `[addr:]port` (`[v6]:port` for an IPv6 address); loopback when no address is given. Undefined when unreadable. */
export function metricsListenOf(text: string): MetricsListen | undefined {
  const match = /^(?:(?:\[([0-9A-Fa-f:.]+)\]|([0-9.]+)):)?(\d{1,5})$/.exec(text.trim());
  if (!match) return undefined;
  const address = match[1] ?? match[2] ?? '127.0.0.1';
  const port = Number(match[3]);
  if (isIP(address) === 0 || port > 65535) return undefined;
  return { address, port };
}

/**
 * The bridge's state in Prometheus' text format, on `/metrics` of its own HTTP server: the values the bridge
 * publishes (fed from its one publish path, by topic), its commands' results, the live link's reconnects and the
 * poller's failed reads. A private registry: an application that embeds the bridge keeps its own default one.
 * A port that cannot be listened on is logged with what to do; the bridge goes on without metrics.
 */
export class BridgeMetrics {
  readonly registry = new Registry();
  readonly #server: Server;
  readonly #listening: Promise<string | undefined>;
  #closed = false;
  #linkSeen = false;
  #linkOnline = false;

  readonly #fps: Gauge<'machine'>;
  readonly #fpsAverage: Gauge<'machine'>;
  readonly #healthSeverity: Gauge<'machine'>;
  readonly #healthState: Gauge<'machine' | 'severity'>;
  readonly #takeover: Gauge<'machine'>;
  readonly #playing: Gauge<'transport'>;
  readonly #machineStale: Gauge<'machine' | 'value'>;
  readonly #transportStale: Gauge<'transport' | 'value'>;
  readonly #commands: Counter<'via' | 'result'>;
  readonly #reconnects: Counter;
  readonly #linkUp: Gauge;
  readonly #pollErrors: Counter<'read'>;
  readonly #director: Gauge<'hostname' | 'url'>;

  constructor(
    listen: MetricsListen,
    prefix: string,
    private readonly log: BridgeLog,
  ) {
    const registers = [this.registry];
    const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) => new Gauge<L>({ name, help, labelNames, registers });
    const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) => new Counter<L>({ name, help, labelNames, registers });
    gauge('stagelink_bridge_up', 'Always 1 while the bridge serves metrics; the prefix label says which bridge.', ['prefix']).set({ prefix }, 1);
    this.#fps = gauge('stagelink_fps', 'The last frame rate published for a machine (at most --fps-hz a second).', ['machine']);
    this.#fpsAverage = gauge('stagelink_fps_average', "The rolling average behind a machine's FPS alert class.", ['machine']);
    this.#healthSeverity = gauge('stagelink_health_severity', "A machine's worst health severity: 0 ok, 1 busy, 2 warning, 3 error, 4 offline.", ['machine']);
    this.#healthState = gauge('stagelink_health_state', "1 for a machine's current health severity, 0 for the others.", ['machine', 'severity']);
    this.#takeover = gauge('stagelink_takeover', 'Whether a failover takeover is in progress for a machine (1) or not (0).', ['machine']);
    this.#playing = gauge('stagelink_transport_playing', 'Whether a transport is playing (1) or not (0).', ['transport']);
    this.#machineStale = gauge('stagelink_machine_stale', "1 while a machine's value (fps, health, takeover) is stale: its last value is held.", ['machine', 'value']);
    this.#transportStale = gauge('stagelink_transport_stale', "1 while a transport's value (state, clock) is stale: its last value is held.", ['transport', 'value']);
    this.#commands = counter('stagelink_commands_total', 'Commands answered, by the way they came (mqtt, osc) and how they ended.', ['via', 'result']);
    this.#reconnects = counter('stagelink_live_reconnects_total', 'Times the live-update stream came back after it dropped.');
    this.#linkUp = gauge('stagelink_live_link_up', 'Whether the live-update stream to the director is up (1) or not (0).');
    this.#pollErrors = counter('stagelink_poll_errors_total', 'Failed reads of the session poller, by read (session, health, transports).', ['read']);
    this.#director = gauge('stagelink_director_info', 'Always 1, labelled with the director the bridge follows.', ['hostname', 'url']);
    // Every series a dashboard counts from exists from the start at 0, so rate() and increase() see the first one.
    for (const via of ['mqtt', 'osc'] as const) for (const result of COMMAND_OUTCOMES) this.#commands.inc({ via, result }, 0);
    for (const read of POLL_READS) this.#pollErrors.inc({ read }, 0);
    this.#reconnects.inc(0);
    this.#linkUp.set(0);

    this.#server = createServer((request, response) => void this.#serve(request, response));
    this.#listening = new Promise((resolve) => {
      const where = `${listen.address.includes(':') ? `[${listen.address}]` : listen.address}:${listen.port}`;
      // Kept for the server's life: an 'error' event with no listener would end the process.
      this.#server.on('error', (error) => {
        const taken = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
        const reason = taken ? 'the port is taken by another program' : reasonOf(error);
        if (!this.#closed) this.log.error('metrics not listening', { address: where, reason, fix: 'choose a free port (or an address of this machine) with --metrics' });
        resolve(undefined);
      });
      this.#server.listen(listen.port, listen.address, () => {
        const address = this.#server.address();
        const port = typeof address === 'object' && address ? address.port : listen.port;
        const url = `http://${listen.address.includes(':') ? `[${listen.address}]` : listen.address}:${port}/metrics`;
        this.log.info('metrics listening', { url });
        resolve(url);
      });
    });
  }

  /** Resolves with the `/metrics` URL once listening, or undefined when the port could not be had. */
  get listening(): Promise<string | undefined> {
    return this.#listening;
  }

  /** A retained topic's new payload, its topic below the prefix (`machines/<hostname>/fps`, `director`, ...). */
  state(topic: string, payload: StatePayload): void {
    if (typeof payload !== 'object') return;
    const stale = payload.stale === true ? 1 : 0;
    // The session's own health is left out: its worst severity is max(stagelink_health_severity).
    const [family, name, part] = topic.split('/');
    if (family === 'machines' && name !== undefined) {
      if (part !== 'fps' && part !== 'health' && part !== 'takeover') return;
      const machine = { machine: name };
      if (part === 'fps') {
        setNumber(this.#fps, machine, payload.value);
        setNumber(this.#fpsAverage, machine, payload.average);
      } else if (part === 'health' && typeof payload.severity === 'string') {
        const severity = payload.severity.toLowerCase();
        this.#healthSeverity.set(machine, severityRank(severity));
        for (const each of HEALTH_SEVERITIES) this.#healthState.set({ machine: name, severity: each }, each === severity ? 1 : 0);
      } else if (part === 'takeover' && typeof payload.value === 'boolean') {
        this.#takeover.set(machine, payload.value ? 1 : 0);
      }
      this.#machineStale.set({ machine: name, value: part }, stale);
    } else if (family === 'transports' && name !== undefined && (part === 'state' || part === 'clock')) {
      if (part === 'state' && typeof payload.playing === 'boolean') this.#playing.set({ transport: name }, payload.playing ? 1 : 0);
      this.#transportStale.set({ transport: name, value: part }, stale);
    } else if (family === 'director' && name === undefined) {
      this.#director.reset();
      this.#director.set({ hostname: typeof payload.hostname === 'string' ? payload.hostname : '', url: typeof payload.url === 'string' ? payload.url : '' }, 1);
    }
  }

  command(result: CommandResult, via: CommandVia): void {
    this.#commands.inc({ via, result: commandOutcome(result) });
  }

  /** The live-update stream's status: `online` again after it was lost counts a reconnect. */
  liveStatus(status: string): void {
    const online = status === 'online';
    if (online && this.#linkSeen && !this.#linkOnline) this.#reconnects.inc();
    if (online) this.#linkSeen = true;
    this.#linkOnline = online;
    this.#linkUp.set(online ? 1 : 0);
  }

  pollError(read: string): void {
    this.#pollErrors.inc({ read });
  }

  /** Stops serving, open keep-alive connections (a scraper's) included. Safe to call more than once. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#listening;
    if (!this.#server.listening) return;
    await new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }

  async #serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0];
    try {
      if (path !== '/metrics') {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: the metrics are at /metrics.\n');
        return;
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Only GET and HEAD are answered.\n');
        return;
      }
      const body = await this.registry.metrics();
      response.writeHead(200, { 'content-type': this.registry.contentType });
      response.end(request.method === 'HEAD' ? undefined : body);
    } catch (error) {
      this.log.warn('metrics not served', { reason: reasonOf(error) });
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(`The metrics could not be gathered: ${reasonOf(error)}\n`);
    }
  }
}

function setNumber(gauge: Gauge<'machine'>, labels: { machine: string }, value: unknown): void {
  if (typeof value === 'number' && Number.isFinite(value)) gauge.set(labels, value);
}
