import {
  ALERT_AVERAGE_WINDOW,
  classifyFps,
  livePresets,
  MediaServer,
  reasonOf,
  RollingAverage,
  sessionMachines,
  ShowRecorder,
  type HealthEntry,
  type LinkStatus,
  type LiveStatus,
  type LiveSubscription,
  type Machine,
  type SessionInfo,
  type Transport,
} from '@stagelink/core';
import { BrokerLink } from './broker-link.js';
import { CommandRunner } from './command-runner.js';
import type { CommandResult } from './command-result.js';
import { FpsThrottle } from './fps-throttle.js';
import { coreLogger, redactUrl } from './log.js';
import { resolveOptions, type BridgeOptions, type ResolvedBridgeOptions } from './options.js';
import { machineHealthPayload, sessionHealthPayload, transportPayload } from './payloads.js';
import { RetainedState, type StatePayload } from './retained-state.js';
import { SessionPoller, type PollRound } from './session-poller.js';
import { readFailureReason, STALE_REASONS, type StaleReason } from './stale-reasons.js';
import { EarlierRunSweep, SWEEP_SUBSCRIPTION_ID } from './earlier-run.js';
import { HaDiscovery } from './ha-discovery.js';
import { BridgeMetrics } from './metrics.js';
import { OscIn, type OscInCounts } from './osc-in.js';
import { OscOut } from './osc-out.js';
import { oscBridgeName, OscTransportNames } from './osc-state.js';
import { DashboardSummary, type SummaryFps, type SummaryHealth } from './summary.js';
import { ShowLogFeed, type LoggedSubject } from './show-log-feed.js';
import { Topics } from './topics.js';
import { TransportClocks, type ClockPayload } from './transport-clocks.js';
import { BRIDGE_SOURCE } from './version.js';

/** The part of the FPS period a value must wait for after the last one, on MQTT and OSC alike (see #watch). */
const FPS_JITTER_SHARE = 0.9;

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

/** One machine's live values: FPS (local preset on the director, remote on the others) and failover takeover. */
interface MachineWatch {
  machine: Machine;
  asDirector: boolean;
  fps?: LiveSubscription;
  takeover?: LiveSubscription;
  average: RollingAverage;
  throttle: FpsThrottle;
}

class SessionBridge {
  readonly topics: Topics;
  readonly #state = new RetainedState();
  readonly #mediaServer: MediaServer;
  readonly #link: BrokerLink;
  readonly #poller: SessionPoller;
  readonly #commands: CommandRunner;
  readonly #machines = new Map<string, MachineWatch>();
  /** The transports the last read listed, by name. */
  readonly #transports = new Set<string>();
  readonly #failing = new Map<string, string>();
  /** Live values whose subscription said `stale`, until it says `online` again (for the log). */
  readonly #stopped = new Set<string>();
  readonly #summary: DashboardSummary;
  readonly #clocks: TransportClocks;
  /** The topics the summary follows: a machine topic to its hostname and which part it is, a clock to its transport. */
  readonly #summarised = new Map<string, { hostname: string; part: 'fps' | 'health' } | { transport: string; part: 'clock' }>();
  readonly #oscOut: OscOut | undefined;
  readonly #oscIn: OscIn | undefined;
  readonly #ha: HaDiscovery | undefined;
  readonly #sweep: EarlierRunSweep;
  readonly #recorder: ShowRecorder | undefined;
  readonly #showLog: ShowLogFeed | undefined;
  readonly metrics: BridgeMetrics | undefined;
  readonly #oscTransports = new OscTransportNames();
  #director: string | undefined;
  /** The last session answer listed no director: the machine answering runs alone. */
  #solo = false;
  #closing: Promise<void> | undefined;

  constructor(private readonly options: ResolvedBridgeOptions) {
    const { log } = options;
    this.topics = new Topics(options.prefix);
    if (options.record !== undefined) {
      const dir = options.record;
      this.#recorder = new ShowRecorder({
        dir,
        source: BRIDGE_SOURCE,
        session: options.prefix,
        onError: (error) => log.warn('show log not written', { dir, reason: reasonOf(error) }),
      });
      this.#showLog = new ShowLogFeed(this.#recorder);
      this.#logged(this.topics.director, { subject: 'director' });
      this.#logged(this.topics.sessionHealth, { subject: 'health' });
    }
    this.metrics = options.metrics ? new BridgeMetrics(options.metrics, options.prefix, log) : undefined;
    this.#summary = new DashboardSummary(1000 / options.fpsHz, (payload) => this.#publish(this.topics.summary, { ...payload }));
    this.#mediaServer = new MediaServer({
      host: options.server,
      followDirector: options.followDirector,
      ...(options.hosts ? { hosts: options.hosts } : {}),
      ...(options.backupHosts.length > 0 ? { backupHosts: options.backupHosts } : {}),
      ...(options.dnssd ? { dnssd: true, dnssdInterface: options.dnssdInterface } : {}),
      logger: coreLogger(log),
    });
    this.#mediaServer.on('director', (change) => {
      log.info('director', { hostname: change.hostname, url: change.url, ...(change.previous ? { previous: change.previous } : {}) });
      // A solo machine is found under the address it was reached at: its hostname comes with the next health answer.
      if (change.solo) return this.#poller.pollSoon();
      this.#setDirector(change.hostname);
      this.#publish(this.topics.director, { hostname: change.hostname, url: change.url });
    });
    this.#mediaServer.live.on('status', (status) => this.#liveStatus(status));
    this.#clocks = new TransportClocks(this.#mediaServer, 1000 / options.fpsHz, (name, payload) => this.#publish(this.topics.transportClock(name), { ...payload }), log);
    this.#commands = new CommandRunner(
      this.#mediaServer,
      this.topics,
      { maxAgeMs: options.maxCommandAgeMs, acceptUntimed: options.acceptUntimedCommands },
      (topic, result, correlationData) => this.#reply(topic, result, correlationData),
      () => this.#poller.pollSoon(),
      log,
      (request, result) => this.#showLog?.command(request, result),
    );
    this.#poller = new SessionPoller(this.#mediaServer, options.pollIntervalMs, (round) => {
      try {
        this.#onRound(round);
      } catch (error) {
        log.error('poll round failed', { reason: reasonOf(error) });
      }
    });
    const oscName = oscBridgeName(options.prefix);
    // The same share as FPS on MQTT: OSC passes on the same values (and clocks made at the same pace) as they come.
    this.#oscOut = options.oscSend.length > 0 ? new OscOut(options.oscSend, oscName, (1000 / options.fpsHz) * FPS_JITTER_SHARE, log) : undefined;
    this.#oscIn = options.oscListen
      ? new OscIn(
          options.oscListen,
          options.oscAllow,
          `/stagelink/${oscName}`,
          (request, send) =>
            this.#commands.submit(request, (result) => {
              this.metrics?.command(result, 'osc');
              send(result);
            }),
          (segment) => this.#oscTransports.nameOf(segment),
          log,
        )
      : undefined;
    this.#ha = options.haDiscovery
      ? new HaDiscovery(
          this.topics,
          { discoveryPrefix: options.haDiscovery, mode: options.haDiscoveryMode },
          {
            publish: (topic, payload) => this.#link.publishRetained(topic, payload),
            unsubscribe: (topics) => this.#link.unsubscribe(topics),
            isConnected: () => this.#link.connected,
          },
          log,
        )
      : undefined;
    this.#sweep = new EarlierRunSweep(
      this.topics,
      {
        clear: (topic) => this.#link.publishRetained(topic, ''),
        unsubscribe: (topics) => this.#link.unsubscribe(topics),
        isConnected: () => this.#link.connected,
      },
      log,
    );
    this.#link = new BrokerLink(
      options,
      this.topics,
      {
        onConnect: () => this.#republish(),
        onMessage: (message) => {
          if (message.subscriptionIds.includes(SWEEP_SUBSCRIPTION_ID)) this.#sweep.message(message.topic, message.payload, message.retain);
          else if (message.topic.startsWith(this.topics.commandRoot)) this.#commands.handle(message);
          else this.#ha?.message(message.topic, message.payload);
        },
        extraTopics: () => this.#ha?.subscriptions ?? [],
        onExtraSubscribed: () => this.#ha?.subscribed(),
        sweep: { id: SWEEP_SUBSCRIPTION_ID, topics: () => this.#sweep.subscriptions, onSubscribed: () => this.#sweep.subscribed() },
      },
      log,
    );
    log.info('bridge starting', { server: options.server, broker: redactUrl(options.mqtt), prefix: options.prefix, followDirector: options.followDirector });
    this.#poller.start();
  }

  get oscCounts(): Readonly<OscInCounts> | undefined {
    return this.#oscIn ? { ...this.#oscIn.counts } : undefined;
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.#oscIn?.close();
      this.#ha?.close();
      this.#sweep.close();
      this.#poller.stop();
      this.#summary.close();
      this.#clocks.close();
      await this.#commands.drain();
      for (const watch of this.#machines.values()) this.#unwatch(watch);
      await this.#oscOut?.close();
      await this.#link.close();
      await this.#mediaServer.close();
      await this.#recorder?.close();
      await this.metrics?.close();
      this.options.log.info('bridge stopped', { prefix: this.options.prefix });
    })();
    return this.#closing;
  }

  // ---- state ----------------------------------------------------------------------------------------------

  #publish(topic: string, payload: StatePayload): void {
    if (this.#closing) return;
    const json = this.#state.set(topic, payload);
    if (json === undefined) return;
    this.#link.publishRetained(topic, json);
    this.#oscOut?.state(topic.slice(this.topics.prefix.length + 1), payload);
    this.metrics?.state(topic.slice(this.topics.prefix.length + 1), payload);
    this.#summarise(topic, payload);
    this.#showLog?.published(topic, payload);
  }

  /** With --record, this topic's values and stale marks go to the show log. */
  #logged(topic: string, subject: LoggedSubject): void {
    this.#showLog?.follow(topic, subject);
  }

  /** A machine topic that changed (a value, a stale mark) changes its part of the summary. */
  #summarise(topic: string, payload: StatePayload): void {
    const followed = this.#summarised.get(topic);
    if (!followed || typeof payload !== 'object') return;
    if (followed.part === 'clock') this.#summary.clock(followed.transport, payload as unknown as ClockPayload);
    else if (followed.part === 'fps') this.#summary.fps(followed.hostname, payload as unknown as SummaryFps);
    else this.#summary.health(followed.hostname, payload as unknown as SummaryHealth);
  }

  /** Republishes a topic's last value with `"stale": true` and why, at once; a topic never published stays empty. */
  #markStale(topic: string, reason: StaleReason): void {
    const stale = this.#state.staleVersion(topic, reason);
    if (stale) this.#publish(topic, stale);
  }

  /** After every (re)connect: the broker may have forgotten everything (a restart without persistence). */
  #republish(): void {
    this.#sweep.connected();
    for (const [topic, json] of this.#state.entries()) this.#link.publishRetained(topic, json);
    this.#link.publishRetained(this.topics.bridge, JSON.stringify('online'));
    this.#ha?.connected();
  }

  #reply(topic: string, result: CommandResult, correlationData?: Buffer): void {
    this.metrics?.command(result, 'mqtt');
    this.#link.publishResult(topic, JSON.stringify(result), correlationData);
  }

  // ---- polled state ---------------------------------------------------------------------------------------

  #onRound({ session, health, transports }: PollRound): void {
    if (session.status === 'fulfilled') this.#onSession(session.value);
    this.#note('session', session);
    if (session.status === 'fulfilled' && health.status === 'fulfilled') this.#forgetMachinesGone(session.value, health.value);
    // A failed read leaves its topics' last values marked stale, never "offline": a stalled answer comes from a
    // machine that is there, and the reason says which it was.
    if (health.status === 'fulfilled') this.#onHealth(health.value);
    else {
      const reason = readFailureReason(health.reason);
      for (const hostname of this.#machines.keys()) this.#markStale(this.topics.machineHealth(hostname), reason);
      this.#markStale(this.topics.sessionHealth, reason);
    }
    this.#note('health', health);
    if (transports.status === 'fulfilled') this.#onTransports(transports.value);
    else {
      const reason = readFailureReason(transports.reason);
      // The state topics only: a clock comes from the live stream, and says itself when it is not live.
      for (const topic of this.#state.topics()) if (topic.startsWith(`${this.topics.prefix}/transports/`) && topic.endsWith('/state')) this.#markStale(topic, reason);
    }
    this.#note('transports', transports);
    // Discovery removes what an earlier run published only once it has seen the whole session.
    if (session.status === 'fulfilled' && health.status === 'fulfilled' && transports.status === 'fulfilled') {
      this.#ha?.sessionRead();
      this.#sweep.sessionRead(this.#ownTopics());
    }
  }

  /** Every machine and transport topic this run publishes, those whose first value has not come yet included. */
  #ownTopics(): Set<string> {
    const own = new Set([...this.#state.topics(), ...this.#summarised.keys()]);
    for (const hostname of this.#machines.keys()) own.add(this.topics.machineTakeover(hostname));
    return own;
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

  #onSession(session: SessionInfo): void {
    for (const { machine } of sessionMachines(session)) this.#watch(machine);
    // As core's director query reads it: a session without a director is its one machine, named by #onHealth.
    this.#solo = session.isRunningSolo || !session.director;
    if (this.#solo) return;
    if (this.options.followDirector) {
      const director = this.#mediaServer.director;
      if (director) {
        this.#setDirector(director.hostname);
        this.#publish(this.topics.director, { hostname: director.hostname, url: director.url });
      }
      return;
    }
    const hostname = session.director?.hostname ?? null;
    this.#setDirector(hostname ?? undefined);
    this.#publish(this.topics.director, { hostname, url: this.#mediaServer.origin });
  }

  #onHealth(entries: HealthEntry[]): void {
    for (const entry of entries) this.#watch(entry.machine);
    if (this.#solo) this.#nameSoloMachine(entries);
    for (const hostname of this.#machines.keys()) this.#publish(this.topics.machineHealth(hostname), machineHealthPayload(entries, hostname));
    this.#publish(this.topics.sessionHealth, sessionHealthPayload(entries));
  }

  /**
   * A machine that neither the session nor its health lists any more was taken out of the session: its live values
   * are dropped and its topics keep their last value marked stale, so nothing reads as live for a machine that is
   * gone. It is watched again if it comes back; the next start clears its topics (see EarlierRunSweep).
   */
  #forgetMachinesGone(session: SessionInfo, health: HealthEntry[]): void {
    const listed = new Set([...sessionMachines(session), ...health].map(({ machine }) => machine?.hostname?.toLowerCase()));
    for (const [hostname, watch] of this.#machines) {
      if (listed.has(hostname.toLowerCase())) continue;
      this.#unwatch(watch);
      this.#machines.delete(hostname);
      this.options.log.info('machine left the session', { hostname });
      for (const topic of [this.topics.machineFps(hostname), this.topics.machineHealth(hostname), this.topics.machineTakeover(hostname)]) {
        this.#markStale(topic, STALE_REASONS.leftSession);
      }
    }
  }

  /**
   * A solo machine directs itself: named by the hostname it reports (`MEDIASERVER01`), not the address the bridge
   * reached it at, and its FPS is its local monitor (a shipping build lists no remote node for itself).
   */
  #nameSoloMachine(entries: HealthEntry[]): void {
    const hostname = entries.find((entry) => this.#machines.has(entry.machine?.hostname))?.machine.hostname;
    if (hostname === undefined) return;
    this.#setDirector(hostname);
    this.#publish(this.topics.director, { hostname, url: this.#mediaServer.origin });
  }

  #onTransports(transports: Transport[]): void {
    const listed = new Set(transports.map((transport) => transport?.name).filter((name) => typeof name === 'string'));
    for (const name of this.#transports) if (!listed.has(name)) this.#forgetTransport(name);
    for (const transport of transports) {
      if (typeof transport?.name !== 'string') continue;
      this.#transports.add(transport.name);
      this.#oscTransports.add(transport.name);
      this.#ha?.transport(transport.name);
      this.#logged(this.topics.transportState(transport.name), { subject: 'transport', transport: transport.name });
      this.#publish(this.topics.transportState(transport.name), transportPayload(transport));
      this.#watchClock(transport.name);
    }
  }

  /**
   * A transport the director lists no more (another project loaded, the transport renamed): its clock stops and
   * its state and clock topics keep their last value marked stale, rather than read as live. It is watched again
   * if it comes back; the next start clears its topics (see EarlierRunSweep).
   */
  #forgetTransport(name: string): void {
    this.#transports.delete(name);
    this.#clocks.unwatch(name);
    this.options.log.info('transport no longer in the project', { transport: name });
    for (const topic of [this.topics.transportState(name), this.topics.transportClock(name)]) this.#markStale(topic, STALE_REASONS.notInProject);
  }

  /** Every transport whose state is published has its clock published beside it. */
  #watchClock(name: string): void {
    if (this.#closing) return;
    this.#summarised.set(this.topics.transportClock(name), { transport: name, part: 'clock' });
    this.#logged(this.topics.transportClock(name), { subject: 'clock', transport: name });
    this.#clocks.watch(name);
  }

  // ---- live values ----------------------------------------------------------------------------------------

  #setDirector(hostname: string | undefined): void {
    if (hostname === this.#director) return;
    this.#director = hostname;
    // The director's own FPS is its local monitor; every other machine's is a remote monitor on the director.
    for (const watch of this.#machines.values()) {
      if (watch.asDirector !== (watch.machine.hostname === hostname)) this.#subscribeFps(watch);
    }
  }

  #watch(machine: Machine): void {
    if (typeof machine?.hostname !== 'string' || machine.hostname === '' || this.#machines.has(machine.hostname) || this.#closing) return;
    const topic = this.topics.machineFps(machine.hostname);
    // The director is asked for values no faster than --fps-hz (see #subscribeFps): the throttle is the guard
    // against one that sends faster. At exactly the asked interval it would hold every value that arrives a little
    // early behind the previous one (network and event-loop jitter) until a timer fires, which on a loaded machine
    // is most of them: a tenth of the period is left for jitter. A runaway director still gets at most 1.1x.
    const periodMs = (1000 / this.options.fpsHz) * FPS_JITTER_SHARE;
    const watch: MachineWatch = {
      machine,
      asDirector: false,
      average: new RollingAverage(ALERT_AVERAGE_WINDOW),
      throttle: new FpsThrottle(periodMs, this.options.fpsDeadband, (payload) => this.#publish(topic, { ...payload })),
    };
    this.#machines.set(machine.hostname, watch);
    this.#ha?.machine(machine.hostname);
    this.#summarised.set(topic, { hostname: machine.hostname, part: 'fps' });
    this.#summarised.set(this.topics.machineHealth(machine.hostname), { hostname: machine.hostname, part: 'health' });
    const { hostname } = machine;
    this.#logged(topic, { subject: 'fps', machine: hostname });
    this.#logged(this.topics.machineHealth(hostname), { subject: 'health', machine: hostname });
    this.#logged(this.topics.machineTakeover(hostname), { subject: 'takeover', machine: hostname });
    this.#subscribeFps(watch);
    this.#subscribeTakeover(watch);
  }

  #subscribeFps(watch: MachineWatch): void {
    watch.fps?.close();
    watch.average.reset();
    const { hostname } = watch.machine;
    watch.asDirector = hostname === this.#director;
    // Asked of the director no faster than published: never more values than the bridge passes on.
    const intervalMs = Math.max(100, Math.round(1000 / this.options.fpsHz));
    try {
      const preset = watch.asDirector ? livePresets.localFps() : livePresets.remoteFps(hostname);
      watch.fps = this.#mediaServer.live.subscribe(
        { ...preset, updateFrequencyMs: intervalMs },
        ({ value }) => {
          if (typeof value !== 'number' || !Number.isFinite(value)) return;
          const average = watch.average.push(value);
          watch.throttle.offer({ value, average, alert: classifyFps(average, this.options.fpsTarget) });
        },
        {
          onError: (error) => this.#liveProblem(`fps ${hostname}`, error),
          onStatus: (status) => this.#fpsStatus(watch, status),
        },
      );
    } catch (error) {
      this.#liveProblem(`fps ${hostname}`, error);
    }
  }

  #subscribeTakeover(watch: MachineWatch): void {
    const { hostname, uid } = watch.machine;
    const topic = this.topics.machineTakeover(hostname);
    try {
      watch.takeover = this.#mediaServer.live.subscribe(
        livePresets.failoverTakeover(uid),
        ({ value }) => {
          if (typeof value === 'boolean') this.#publish(topic, { value });
        },
        {
          onError: (error) => this.#liveProblem(`takeover ${hostname}`, error),
          onStatus: (status) => this.#subscriptionStatus(`takeover ${hostname}`, status, () => this.#markStale(topic, STALE_REASONS.valuesStopped)),
        },
      );
    } catch (error) {
      this.#liveProblem(`takeover ${hostname}`, error);
    }
  }

  #unwatch(watch: MachineWatch): void {
    watch.fps?.close();
    watch.takeover?.close();
    watch.throttle.close();
  }

  /** The stream dropped: every live value is marked stale at once, and averages start again when it is back. */
  #liveStatus(status: LinkStatus): void {
    this.options.log.info('live update', { status });
    this.#showLog?.link(status);
    this.metrics?.liveStatus(status);
    if (status === 'online') return;
    for (const watch of this.#machines.values()) {
      watch.average.reset();
      watch.throttle.markStale(STALE_REASONS.noLink);
      this.#markStale(this.topics.machineTakeover(watch.machine.hostname), STALE_REASONS.noLink);
    }
  }

  /** This machine's FPS stopped while the stream is up: its topic alone is marked, its average starts again. */
  #fpsStatus(watch: MachineWatch, status: LiveStatus): void {
    this.#subscriptionStatus(`fps ${watch.machine.hostname}`, status, () => {
      watch.average.reset();
      watch.throttle.markStale(STALE_REASONS.valuesStopped);
    });
  }

  /**
   * One subscription's own status: `stale` marks its topic (the link's statuses are #liveStatus's, for every
   * topic at once); the next value clears the mark, as any value does.
   */
  #subscriptionStatus(what: string, status: LiveStatus, markStale: () => void): void {
    if (status === 'stale') {
      if (!this.#stopped.has(what)) this.options.log.warn('live value stopped', { what });
      this.#stopped.add(what);
      markStale();
    } else if (status === 'online' && this.#stopped.delete(what)) {
      this.options.log.info('live value back', { what });
    }
  }

  #liveProblem(what: string, error: unknown): void {
    const reason = reasonOf(error);
    if (this.#failing.get(what) === reason) return;
    this.#failing.set(what, reason);
    this.options.log.warn('live value refused', { what, reason });
  }
}
