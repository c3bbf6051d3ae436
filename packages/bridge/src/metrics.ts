import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { reasonOf, severityRank, type HardwareSnapshot } from '@stagelink/core';
import { Counter, Gauge, Registry } from 'prom-client';
import { COMMAND_REFUSALS } from './command-errors.js';
import type { CommandResult } from './command-result.js';
import type { BridgeLog } from './log.js';
import { MEMBER_PARTS, type BridgeAdapter, type Member, type StateEvent } from './session-events.js';
import { topicSegment } from './topics.js';

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

/** `stagelink_hardware_severity`: the snapshot's severity, or 3 when its management controller did not answer. */
export function hardwareSeverityValue(snapshot: Pick<HardwareSnapshot, 'status' | 'severity'>): number {
  if (snapshot.status === 'offline') return 3;
  return snapshot.severity === 'error' ? 2 : snapshot.severity === 'warning' ? 1 : 0;
}

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
 * publishes (an adapter of the session's state stream), the lowest FPS between two scrapes, its commands' results, the live link's reconnects and the
 * poller's failed reads. A private registry: an application that embeds the bridge keeps its own default one.
 * A port that cannot be listened on is logged with what to do; the bridge goes on without metrics. The lowest FPS
 * is the lowest since the last GET of `/metrics` by anyone: two Prometheus servers scraping one bridge each see
 * only the drops since the other's scrape (`stagelink_fps` is the same for both).
 */
export class BridgeMetrics implements BridgeAdapter {
  readonly registry = new Registry();
  readonly #server: Server;
  readonly #listening: Promise<string | undefined>;
  #closed = false;
  #linkSeen = false;
  #linkOnline = false;

  readonly #fps: Gauge<'machine'>;
  readonly #fpsAverage: Gauge<'machine'>;
  readonly #fpsMin: Gauge<'machine'>;
  /** Per machine (as labelled): the last FPS published, and the lowest since the last scrape. */
  readonly #fpsHeld = new Map<string, { now: number; lowest: number }>();
  readonly #healthSeverity: Gauge<'machine'>;
  readonly #healthState: Gauge<'machine' | 'severity'>;
  readonly #takeover: Gauge<'machine'>;
  readonly #playing: Gauge<'transport'>;
  readonly #temperature: Gauge<'machine' | 'sensor'>;
  readonly #fanRpm: Gauge<'machine' | 'sensor'>;
  readonly #hardwareSeverity: Gauge<'machine'>;
  readonly #powerOn: Gauge<'machine'>;
  /** Per machine (as labelled): the sensors of its last snapshot, whose series go when they are no longer read. */
  readonly #sensors = new Map<string, { temperatures: Set<string>; fans: Set<string> }>();
  readonly #machineStale: Gauge<'machine' | 'value'>;
  readonly #transportStale: Gauge<'transport' | 'value'>;
  readonly #workloadOk: Gauge<'layer'>;
  readonly #layerStale: Gauge<'layer'>;
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
    this.#fpsMin = gauge(
      'stagelink_fps_min',
      "The lowest frame rate published for a machine since the last scrape (then the value it holds): a drop shorter than the scrape interval is seen.",
      ['machine'],
    );
    this.#fpsAverage = gauge('stagelink_fps_average', "The rolling average behind a machine's FPS alert class.", ['machine']);
    this.#healthSeverity = gauge('stagelink_health_severity', "A machine's worst health severity: 0 ok, 1 busy, 2 warning, 3 error, 4 offline.", ['machine']);
    this.#healthState = gauge('stagelink_health_state', "1 for a machine's current health severity, 0 for the others.", ['machine', 'severity']);
    this.#takeover = gauge('stagelink_takeover', 'Whether a failover takeover is in progress for a machine (1) or not (0).', ['machine']);
    this.#temperature = gauge('stagelink_hardware_temperature_celsius', "A temperature sensor of a machine, as its management controller last read it.", ['machine', 'sensor']);
    this.#fanRpm = gauge('stagelink_hardware_fan_rpm', "A fan's speed of a machine, as its management controller last read it.", ['machine', 'sensor']);
    this.#hardwareSeverity = gauge('stagelink_hardware_severity', "A machine's hardware severity: 0 ok, 1 warning, 2 error, 3 offline (its management controller does not answer).", ['machine']);
    this.#powerOn = gauge('stagelink_hardware_power_on', 'Whether a machine is powered on (1) or off (0), as its management controller reports it.', ['machine']);
    this.#playing = gauge('stagelink_transport_playing', 'Whether a transport is playing (1) or not (0).', ['transport']);
    this.#machineStale = gauge('stagelink_machine_stale', "1 while a machine's value (fps, health, takeover, hardware) is stale: its last value is held.", ['machine', 'value']);
    this.#transportStale = gauge('stagelink_transport_stale', "1 while a transport's value (state, clock) is stale: its last value is held.", ['transport', 'value']);
    this.#workloadOk = gauge('stagelink_renderstream_workload_ok', "Whether a RenderStream layer's workload is running (1) or not (0: starting, stopped, error).", ['layer']);
    this.#layerStale = gauge('stagelink_renderstream_stale', "1 while a RenderStream layer's workload is stale: its last state is held.", ['layer']);
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

  /** A value of the session changed. Machines, transports and layers are labelled as their topics spell them. */
  state(event: StateEvent): void {
    const stale = event.marks ? 1 : 0;
    // The session's own health is left out: its worst severity is max(stagelink_health_severity).
    if (event.what === 'machine') {
      const machine = { machine: topicSegment(event.which) };
      if (event.part === 'fps') {
        setNumber(this.#fps, machine, event.value.value);
        this.#lowestFps(machine.machine, event.value.value);
        setNumber(this.#fpsAverage, machine, event.value.average);
      } else if (event.part === 'health' && typeof event.value.severity === 'string') {
        const severity = event.value.severity.toLowerCase();
        this.#healthSeverity.set(machine, severityRank(severity));
        for (const each of HEALTH_SEVERITIES) this.#healthState.set({ ...machine, severity: each }, each === severity ? 1 : 0);
      } else if (event.part === 'takeover' && typeof event.value.value === 'boolean') {
        this.#takeover.set(machine, event.value.value ? 1 : 0);
      } else if (event.part === 'hardware') {
        this.#hardware(machine.machine, event.value);
      }
      this.#machineStale.set({ ...machine, value: event.part }, stale);
    } else if (event.what === 'transport') {
      const transport = topicSegment(event.which);
      if (event.part === 'state' && typeof event.value.playing === 'boolean') this.#playing.set({ transport }, event.value.playing ? 1 : 0);
      this.#transportStale.set({ transport, value: event.part }, stale);
    } else if (event.what === 'layer') {
      const layer = { layer: topicSegment(event.which) };
      this.#workloadOk.set(layer, event.value.state === 'running' ? 1 : 0);
      this.#layerStale.set(layer, stale);
    } else if (event.what === 'director') {
      this.#director.reset();
      this.#director.set({ hostname: event.value.hostname ?? '', url: event.value.url }, 1);
    } else if (event.what === 'bridge') {
      this.#liveStatus(event.value.status);
    }
  }

  /** A machine that left the session, a transport no longer in the project, a layer gone: its series are removed, not held. */
  removed({ what, which }: Member): void {
    if (what === 'layer') {
      const layer = { layer: topicSegment(which) };
      this.#workloadOk.remove(layer);
      this.#layerStale.remove(layer);
    } else if (what === 'machine') {
      const machine = topicSegment(which);
      for (const gauge of [this.#fps, this.#fpsAverage, this.#fpsMin, this.#healthSeverity, this.#takeover, this.#hardwareSeverity, this.#powerOn]) gauge.remove({ machine });
      this.#removeSensors(machine, { temperatures: new Set(), fans: new Set() });
      this.#sensors.delete(machine);
      this.#fpsHeld.delete(machine);
      for (const severity of HEALTH_SEVERITIES) this.#healthState.remove({ machine, severity });
      for (const value of MEMBER_PARTS.machine) this.#machineStale.remove({ machine, value });
    } else {
      const transport = topicSegment(which);
      this.#playing.remove({ transport });
      for (const value of MEMBER_PARTS.transport) this.#transportStale.remove({ transport, value });
    }
  }

  /** A machine's hardware snapshot: its sensors as read (those no longer read removed), severity and power. */
  #hardware(machine: string, snapshot: HardwareSnapshot): void {
    this.#hardwareSeverity.set({ machine }, hardwareSeverityValue(snapshot));
    if (snapshot.power === undefined) this.#powerOn.remove({ machine });
    else this.#powerOn.set({ machine }, snapshot.power === 'on' ? 1 : 0);
    const now = { temperatures: new Set<string>(), fans: new Set<string>() };
    for (const { sensor, celsius } of snapshot.temperatures) {
      if (!Number.isFinite(celsius)) continue;
      this.#temperature.set({ machine, sensor }, celsius);
      now.temperatures.add(sensor);
    }
    for (const { sensor, rpm } of snapshot.fans) {
      if (!Number.isFinite(rpm)) continue;
      this.#fanRpm.set({ machine, sensor }, rpm);
      now.fans.add(sensor);
    }
    // An SMC that stops answering shows no readings: its last ones are not kept as if read now.
    this.#removeSensors(machine, now);
    this.#sensors.set(machine, now);
  }

  #removeSensors(machine: string, keep: { temperatures: Set<string>; fans: Set<string> }): void {
    const before = this.#sensors.get(machine);
    if (!before) return;
    for (const sensor of before.temperatures) if (!keep.temperatures.has(sensor)) this.#temperature.remove({ machine, sensor });
    for (const sensor of before.fans) if (!keep.fans.has(sensor)) this.#fanRpm.remove({ machine, sensor });
  }

  #lowestFps(machine: string, value: unknown): void {
    if (typeof value !== 'number' || !Number.isFinite(value)) return;
    const held = this.#fpsHeld.get(machine);
    const lowest = held === undefined ? value : Math.min(held.lowest, value);
    this.#fpsHeld.set(machine, { now: value, lowest });
    this.#fpsMin.set({ machine }, lowest);
  }

  /** A scrape took the lowest values: the next period starts from the value each machine holds now. */
  #scraped(): void {
    for (const [machine, held] of this.#fpsHeld) {
      held.lowest = held.now;
      this.#fpsMin.set({ machine }, held.now);
    }
  }

  command(result: CommandResult, via: CommandVia): void {
    this.#commands.inc({ via, result: commandOutcome(result) });
  }

  /** The live-update stream's status: `online` again after it was lost counts a reconnect. */
  #liveStatus(status: string): void {
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
      // Only a GET takes the values: a HEAD (a health check of the port) leaves the lowest FPS for the scraper.
      if (request.method === 'GET') this.#scraped();
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
