import { isIP } from 'node:net';
import { MediaServer, MIN_LAYERS_EVERY_MS, reasonOf, ShowRecorder } from '@stagelink/core';
import { BrokerLink } from './broker-link.js';
import { CommandRunner } from './command-runner.js';
import { EarlierRunSweep, SWEEP_SUBSCRIPTION_ID } from './earlier-run.js';
import { HaDiscovery } from './ha-discovery.js';
import { FPS_JITTER_SHARE, LiveMachines } from './live-machines.js';
import { MachineHardware } from './machine-hardware.js';
import { coreLogger, redactUrl } from './log.js';
import { BridgeMetrics } from './metrics.js';
import { MqttState } from './mqtt-state.js';
import { resolveOptions, type BridgeOptions, type ResolvedBridgeOptions } from './options.js';
import { OscIn, type OscInCounts } from './osc-in.js';
import { OscOut } from './osc-out.js';
import { oscBridgeName, OscTransportNames } from './osc-state.js';
import { machineHealthPayload, sessionHealthPayload, transportPayload } from './payloads.js';
import { RenderStreamLayers } from './renderstream-layers.js';
import type { StateEvent } from './session-events.js';
import { SessionPoller, type PollRound } from './session-poller.js';
import { SessionStateStream } from './session-state.js';
import { ShowLogFeed } from './show-log-feed.js';
import { readFailureReason } from './stale-reasons.js';
import { DashboardSummary } from './summary.js';
import { Topics, topicSegment } from './topics.js';
import { TransportClocks, type ClockPayload } from './transport-clocks.js';
import { BRIDGE_SOURCE } from './version.js';

export interface Bridge {
  readonly topics: Topics;
  /** The options in force, defaults filled in (the password is not repeated here). */
  readonly options: Omit<ResolvedBridgeOptions, 'password' | 'log'>;
  /** What the OSC listener saw (packets refused, bad, duplicate, commands taken); undefined without --osc-listen. */
  readonly oscCounts: Readonly<OscInCounts> | undefined;
  /** Where Prometheus scrapes the bridge (`http://127.0.0.1:9464/metrics`); undefined without --metrics or when its port was taken. */
  readonly metricsUrl: string | undefined;
  /** Says `offline`, closes the broker connection and the session's client. Safe to call more than once. */
  close(): Promise<void>;
}

/**
 * Starts a bridge: one MediaServer for the session, its state published to the broker, cues taken from it.
 * Resolves at once, broker or session reachable or not: both are retried for as long as the bridge runs.
 * OptionError for options that cannot be used.
 */
export async function startBridge(options: BridgeOptions): Promise<Bridge> {
  const resolved = resolveOptions(options);
  const bridge = new SessionBridge(resolved);
  const shown: Partial<ResolvedBridgeOptions> = { ...resolved };
  delete shown.password;
  delete shown.log;
  const metricsUrl = await bridge.metrics?.listening;
  return {
    topics: bridge.topics,
    metricsUrl,
    options: shown as Bridge['options'],
    get oscCounts() {
      return bridge.oscCounts;
    },
    close: () => bridge.close(),
  };
}

/**
 * The wiring of one bridge: the session's client, the poller and the live machines feed one stream of the session's
 * state, and every output is an adapter of it. Built whole before anything starts: no callback can reach a part
 * that is not there yet.
 */
class SessionBridge {
  readonly topics: Topics;
  readonly metrics: BridgeMetrics | undefined;
  readonly #stream = new SessionStateStream();
  readonly #mediaServer: MediaServer;
  readonly #poller: SessionPoller;
  readonly #live: LiveMachines;
  readonly #clocks: TransportClocks;
  readonly #hardware: MachineHardware;
  readonly #layers: RenderStreamLayers;
  readonly #commands: CommandRunner;
  readonly #link: BrokerLink;
  readonly #mqtt: MqttState;
  readonly #summary: DashboardSummary;
  readonly #showLog: ShowLogFeed | undefined;
  readonly #ha: HaDiscovery | undefined;
  readonly #sweep: EarlierRunSweep;
  readonly #oscOut: OscOut | undefined;
  readonly #oscIn: OscIn | undefined;
  readonly #oscTransports = new OscTransportNames();
  readonly #failing = new Map<string, string>();
  #closing: Promise<void> | undefined;

  constructor(private readonly options: ResolvedBridgeOptions) {
    const { log } = options;
    const topics = new Topics(options.prefix);
    this.topics = topics;
    const periodMs = 1000 / options.fpsHz;

    // The session: its client, the poller, the live values and the clocks, each feeding the stream.
    const mediaServer = new MediaServer({
      host: options.server,
      followDirector: options.followDirector,
      ...(options.hosts ? { hosts: options.hosts } : {}),
      ...(options.backupHosts.length > 0 ? { backupHosts: options.backupHosts } : {}),
      ...(options.dnssd ? { dnssd: true, dnssdInterface: options.dnssdInterface } : {}),
      ...(options.smcs ? { smcs: options.smcs } : {}),
      logger: coreLogger(log),
    });
    this.#mediaServer = mediaServer;
    const poller = new SessionPoller(mediaServer, options.pollIntervalMs, (round) => this.#round(round));
    this.#poller = poller;
    this.#live = new LiveMachines(mediaServer, this.#stream, options, () => poller.pollSoon(), log);
    this.#hardware = new MachineHardware(mediaServer, options.smcs, options.hardwareEveryMs, (event) => this.#stream.state(event), log);
    // The layers are read at the poller's pace, but never faster than core lets a watch read them.
    const layers = new RenderStreamLayers(mediaServer, this.#stream, Math.max(MIN_LAYERS_EVERY_MS, options.pollIntervalMs), log);
    this.#layers = layers;
    this.#clocks = new TransportClocks(mediaServer, periodMs, (name, payload) => this.#stream.state(clockEvent(name, payload)), log);

    // The broker link: its events reach the parts made below, and it connects only once they all exist (start()).
    const link: BrokerLink = new BrokerLink(
      options,
      topics,
      {
        onConnect: () => {
          sweep.connected();
          mqtt.connected();
          ha?.connected();
        },
        onMessage: (message) => {
          if (message.subscriptionIds.includes(SWEEP_SUBSCRIPTION_ID)) sweep.message(message.topic, message.payload, message.retain);
          else if (message.topic.startsWith(topics.commandRoot)) commands.handle(message);
          else ha?.message(message.topic, message.payload);
        },
        extraTopics: () => ha?.subscriptions ?? [],
        onExtraSubscribed: () => ha?.subscribed(),
        sweep: { id: SWEEP_SUBSCRIPTION_ID, topics: () => sweep.subscriptions, onSubscribed: () => sweep.subscribed() },
      },
      log,
    );
    this.#link = link;
    const mqtt = new MqttState(topics, link);
    this.#mqtt = mqtt;
    const sweep = new EarlierRunSweep(
      topics,
      { clear: (topic) => link.publishRetained(topic, ''), unsubscribe: (list) => link.unsubscribe(list), isConnected: () => link.connected },
      log,
    );
    this.#sweep = sweep;
    const ha = options.haDiscovery
      ? new HaDiscovery(
          topics,
          { discoveryPrefix: options.haDiscovery, mode: options.haDiscoveryMode },
          { publish: (topic, payload) => link.publishRetained(topic, payload), unsubscribe: (list) => link.unsubscribe(list), isConnected: () => link.connected },
          log,
        )
      : undefined;
    this.#ha = ha;
    const commands = new CommandRunner(
      mediaServer,
      topics,
      { maxAgeMs: options.maxCommandAgeMs, acceptUntimed: options.acceptUntimedCommands, layers },
      (topic, result, correlationData) => {
        this.metrics?.command(result, 'mqtt');
        link.publishResult(topic, JSON.stringify(result), correlationData);
      },
      () => poller.pollSoon(),
      log,
      (request, result) => this.#showLog?.command(request, result),
    );
    this.#commands = commands;

    // The outputs, in the order each value reaches them.
    const oscName = oscBridgeName(options.prefix);
    // The same share as FPS on MQTT: OSC passes on the same values (and clocks made at the same pace) as they come.
    // A console that sends us commands over IPv6 listens there too: names are looked up in the family we listen in.
    const oscFamily = options.oscListen && isIP(options.oscListen.address) === 6 ? 6 : 4;
    this.#oscOut = options.oscSend.length > 0 ? new OscOut(options.oscSend, oscName, periodMs * FPS_JITTER_SHARE, log, { family: oscFamily }) : undefined;
    this.metrics = options.metrics ? new BridgeMetrics(options.metrics, options.prefix, log) : undefined;
    this.#summary = new DashboardSummary(periodMs, (payload) => mqtt.retain(topics.summary, { ...payload }));
    this.#showLog =
      options.record === undefined
        ? undefined
        : new ShowLogFeed(
            new ShowRecorder({
              dir: options.record,
              source: BRIDGE_SOURCE,
              session: options.prefix,
              onError: (error) => log.warn('show log not written', { dir: options.record, reason: reasonOf(error) }),
            }),
          );
    for (const adapter of [this.#mqtt, this.#oscOut, this.metrics, this.#summary, this.#showLog, this.#ha]) this.#stream.use(adapter);

    // Commands by OSC: the same runner, by the same rules.
    const metrics = this.metrics;
    this.#oscIn = options.oscListen
      ? new OscIn(
          options.oscListen,
          options.oscAllow,
          `/stagelink/${oscName}`,
          (request, send) =>
            commands.submit(request, (result) => {
              metrics?.command(result, 'osc');
              send(result);
            }),
          (segment) => this.#oscTransports.nameOf(segment),
          log,
          (part) => {
            const layer = layers.byOscName(part);
            return layer ? topicSegment(layer.name) : part;
          },
        )
      : undefined;

    log.info('bridge starting', { server: options.server, broker: redactUrl(options.mqtt), prefix: options.prefix, followDirector: options.followDirector });
    mediaServer.on('director', (change) => {
      this.#live.directorChanged(change);
      layers.directorChanged();
    });
    mediaServer.live.on('status', (status) => this.#live.linkStatus(status));
    this.#stream.start();
    link.start();
    poller.start();
    layers.start();
  }

  get oscCounts(): Readonly<OscInCounts> | undefined {
    return this.#oscIn ? { ...this.#oscIn.counts } : undefined;
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.#oscIn?.close();
      this.#poller.stop();
      this.#sweep.close();
      this.#clocks.close();
      this.#hardware.close();
      this.#layers.close();
      this.#live.close();
      await this.#commands.drain();
      this.#stream.close();
      this.#ha?.close();
      this.#summary.close();
      this.#mqtt.close();
      await this.#oscOut?.close();
      await this.#link.close();
      await this.#mediaServer.close();
      await this.#showLog?.close();
      await this.metrics?.close();
      this.options.log.info('bridge stopped', { prefix: this.options.prefix });
    })();
    return this.#closing;
  }

  /** One poll round: what left first (nothing of it is published again), what came, then the values read. */
  #round(round: PollRound): void {
    try {
      this.#roundOf(round);
    } catch (error) {
      this.options.log.error('poll round failed', { reason: reasonOf(error) });
    }
  }

  #roundOf({ session, health, transports, added, removed }: PollRound): void {
    if (this.#closing) return;
    const stream = this.#stream;
    for (const hostname of removed.machines) {
      this.options.log.info('machine left the session', { hostname });
      this.#live.left(hostname);
      this.#hardware.left(hostname);
      stream.removed({ what: 'machine', which: hostname });
    }
    for (const name of removed.transports) {
      this.options.log.info('transport no longer in the project', { transport: name });
      this.#clocks.unwatch(name);
      stream.removed({ what: 'transport', which: name });
    }
    for (const machine of added.machines) {
      stream.added({ what: 'machine', which: machine.hostname });
      this.#live.watch(machine);
      this.#hardware.watch(machine.hostname);
    }
    for (const name of added.transports) {
      stream.added({ what: 'transport', which: name });
      this.#oscTransports.add(name);
      this.#clocks.watch(name);
    }

    if (session.status === 'fulfilled') this.#live.session(session.value);
    this.#note('session', session);
    // A failed read leaves its values' last value marked stale, never "offline": a stalled answer comes from a
    // machine that is there, and the reason says which it was.
    if (health.status === 'fulfilled') {
      this.#live.health(health.value);
      for (const { which } of stream.members('machine')) stream.state({ what: 'machine', which, part: 'health', value: machineHealthPayload(health.value, which) });
      stream.state({ what: 'session', part: 'health', value: sessionHealthPayload(health.value) });
    } else {
      const reason = readFailureReason(health.reason);
      for (const { which } of stream.members('machine')) stream.markStale({ what: 'machine', which, part: 'health' }, reason);
      stream.markStale({ what: 'session', part: 'health' }, reason);
    }
    this.#note('health', health);
    if (transports.status === 'fulfilled') {
      this.#ha?.transportsRead();
      for (const transport of transports.value) if (typeof transport?.name === 'string') stream.state({ what: 'transport', which: transport.name, part: 'state', value: transportPayload(transport) });
    } else {
      const reason = readFailureReason(transports.reason);
      // The state values only: a clock comes from the live stream, and says itself when it is not live.
      for (const { which } of stream.members('transport')) stream.markStale({ what: 'transport', which, part: 'state' }, reason);
    }
    this.#note('transports', transports);
    // What an earlier run published is removed only once the whole session has been seen, its RenderStream layers
    // too (their first answer, whatever it was): a layer topic is not cleared only to be published again.
    if (session.status === 'fulfilled' && health.status === 'fulfilled' && transports.status === 'fulfilled' && this.#layers.read) {
      this.#ha?.sessionRead();
      this.#sweep.sessionRead(new Set(stream.members().flatMap((member) => this.#mqtt.topicsOf(member))));
    }
  }

  /** Logs a read that starts failing, and once more when it recovers; not every round. */
  #note(what: string, result: PromiseSettledResult<unknown>): void {
    const before = this.#failing.get(what);
    if (result.status === 'fulfilled') {
      if (before !== undefined) this.options.log.info('read recovered', { what });
      this.#failing.delete(what);
      return;
    }
    this.metrics?.pollError(what);
    const reason = reasonOf(result.reason);
    if (before !== reason) this.options.log.warn('read failed', { what, reason });
    this.#failing.set(what, reason);
  }
}

/** A clock as core's watch gives it: the snapshot, and its stale mark while it is not live. */
function clockEvent(name: string, { stale, reason, ...snapshot }: ClockPayload): StateEvent {
  return { what: 'transport', which: name, part: 'clock', value: snapshot, ...(stale && reason ? { marks: { stale, reason } } : {}) };
}
