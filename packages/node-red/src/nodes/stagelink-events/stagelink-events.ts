import { isUnreachable, type DirectorChange, type LiveStatus, type MediaServer, type SessionMachine } from '@stagelink/core';
import { inRuntimeLanguage, sayError } from '../../shared/error-words.js';
import { serverConnection, type ServerConnection } from '../../shared/connections.js';
import { closeWithDeploy, NodeWork } from '../../shared/input.js';
import type { Node, NodeAPI, NodeDef } from '../../shared/node-red.js';
import { OutageReport } from '../../shared/outage.js';
import { showServerState } from '../../shared/server-status.js';
import { StatusLine } from '../../shared/status.js';
import { eventSettingsOf, type EventSettings } from './event-settings.js';
import { MachineLive } from './machine-live.js';
import { healthHostnames, machinesOf, readSession, type SessionReading } from './session-reading.js';
import { ShowEvents } from './show-events.js';
import { say, useRuntime } from '../../shared/words.js';

/**
 * A look at the show waits this long for an answer, whatever the poll interval: a busy director answers seconds
 * late (it runs API work on its main thread), and a tick that comes while a look is still out is skipped.
 */
const READ_TIMEOUT_MS = 5000;
/**
 * Looks in a row that get no answer before the node says offline: one look lost to a director busy for longer
 * than the deadline is not an outage. A server that stopped answering is offline after two deadlines and a tick.
 */
const MISSES_BEFORE_OFFLINE = 2;

/**
 * `stagelink-events`: one msg per change an operator reacts to (the director moved, a transport's playmode or
 * track, a machine's health, a failover takeover, an FPS alert, a live value that stopped or flows again, the
 * server going offline or coming back). Polls gently through the config node's client and watches live values on
 * its one socket; sends nothing for what it sees first, only for changes.
 */
export default function register(RED: NodeAPI): void {
  useRuntime(RED);
  RED.nodes.registerType('stagelink-events', function StagelinkEvents(this: Node<never>, def: NodeDef): void {
    RED.nodes.createNode(this, def);
    startEvents(RED, this, def);
  });
}

function startEvents(RED: NodeAPI, node: Node<never>, def: NodeDef): void {
  // The server's state (connecting, unreachable, a setting that cannot work) as well as this node's own.
  const status = new StatusLine(node, { live: true });
  showServerState(RED, node, def, status, { reportsSetup: true });
  const work = new NodeWork();
  let stop = (): void => undefined;
  // Started once the whole flow has, so a Catch node later in the flow hears of a setting that cannot work.
  const start = setImmediate(() => {
    try {
      const server = serverConnection(RED, def.server);
      stop = watchShow(node, server, server.client, eventSettingsOf(def), status, work);
    } catch (error) {
      status.failed(error);
      node.error(inRuntimeLanguage(error), { topic: 'setup', payload: sayError(error) });
    }
  });
  closeWithDeploy(node, status, work, () => {
    clearImmediate(start);
    stop();
  });
}

/** Starts polling and watching; answers what releases every timer, listener and subscription it added. */
function watchShow(node: Node<never>, server: ServerConnection, client: MediaServer, settings: EventSettings, status: StatusLine, work: NodeWork): () => void {
  const { kinds } = settings;
  const events = new ShowEvents(kinds, (msg) => {
    if (!work.closing) node.send(msg);
  });
  const pollOutage = new OutageReport(node);
  const liveOutage = new OutageReport(node);
  /** What the status line shows: a live value's stop changes it only while it shows what the node watches. */
  let showing: 'connecting' | 'watching' | 'problem' = 'connecting';
  const live = new MachineLive(client, { fps: kinds.has('fps'), takeover: kinds.has('takeover'), fpsTarget: settings.fpsTarget, fpsWindow: settings.fpsWindow }, {
    fps: (hostname, alert, average) => events.fps(hostname, alert, average, settings.fpsTarget),
    takeover: (hostname, takenOver) => events.takeover(hostname, takenOver),
    stale: (hostname, watching, stale) => {
      events.stale(hostname, watching, stale);
      if (showing === 'watching') showWatching();
    },
    value: () => liveOutage.recovered(),
    problem: (error) => liveOutage.failed(error, { topic: 'live', payload: sayError(error) }),
  });
  const missing = new MissingMachines(node, settings.machines);
  const watching = { machines: 0, transports: 0 };
  const showWatching = (): void => {
    showing = 'watching';
    // The machines only, to fit the status line: the msgs say which of their values stopped.
    const stale = live.staleMachines;
    if (stale.length === 0) status.ok(watchingText(kinds, watching));
    else status.stale(stale.length === 1 ? say('status.staleOne', { what: stale[0] ?? '' }) : say('status.staleMany', { count: stale.length }));
  };

  let misses = 0;
  const onReading = (reading: SessionReading): void => {
    misses = reading.problem && isUnreachable(reading.problem) ? misses + 1 : 0;
    // The first look without an answer changes nothing: the next one says whether the server is still there.
    if (misses > 0 && misses < MISSES_BEFORE_OFFLINE) return;
    events.connection(reading.reached ? 'online' : 'offline');
    if (reading.problem) pollOutage.failed(reading.problem, { topic: 'connection', payload: sayError(reading.problem) });
    else pollOutage.recovered();
    if (reading.session) {
      const machines = machinesOf(reading.session, settings.machines);
      watching.machines = machines.length;
      missing.check(machines);
      // Following the director, core says when it moves; a poll racing a move would report the old one again.
      if (!server.followDirector && reading.session.director) events.director(reading.session.director.hostname);
      if (kinds.has('fps') || kinds.has('takeover')) live.follow(machines, reading.session.director?.hostname);
      if (reading.health) events.health(healthHostnames(machines, reading.health, settings.machines), reading.health);
    }
    if (reading.transports) {
      watching.transports = reading.transports.length;
      events.transports(reading.transports);
    }
    if (reading.reached && !reading.problem) showWatching();
    else {
      showing = 'problem';
      if (reading.reached) status.failed(reading.problem);
      else status.offline();
    }
  };

  let polling = false;
  const poll = (): void => {
    // A slow server must not pile up requests: a tick is skipped while the last look is still out.
    if (polling || work.closing) return;
    polling = true;
    const call = { signal: work.signal, timeoutMs: READ_TIMEOUT_MS };
    const wants = { health: kinds.has('health'), transports: kinds.has('playmode') || kinds.has('track') };
    void work
      .track(async () => onReading(await readSession(client, wants, call)), (error) => {
        showing = 'problem';
        status.failed(error);
        pollOutage.failed(error, { topic: 'connection', payload: sayError(error) });
      })
      .finally(() => (polling = false));
  };

  const onDirector = ({ hostname, url }: DirectorChange): void => events.director(hostname, url);
  const onLiveStatus = (state: LiveStatus): void => {
    if (state === 'offline') live.resetAverages();
  };
  if (server.followDirector) {
    if (client.director) events.director(client.director.hostname, client.director.url);
    client.on('director', onDirector);
  }
  client.live.on('status', onLiveStatus);
  status.connecting();
  poll();
  const timer = setInterval(poll, settings.intervalMs);
  return () => {
    clearInterval(timer);
    client.off('director', onDirector);
    client.live.off('status', onLiveStatus);
    live.close();
  };
}

/**
 * "4 machines online": the connection, and what the node watches in 20 characters. The machines when it watches
 * them (what an operator counts on: one missing is one down), else the transports, else just "online".
 */
function watchingText(kinds: EventSettings['kinds'], watching: { machines: number; transports: number }): string {
  if (kinds.has('health') || kinds.has('fps') || kinds.has('takeover')) return say('status.machinesOnline', { count: watching.machines });
  if (kinds.has('playmode') || kinds.has('track')) return say('status.transportsOnline', { count: watching.transports });
  return say('status.online');
}

/** Says once in the log which machines named in the settings the session does not have (a typo shows nowhere else). */
class MissingMachines {
  readonly #told = new Set<string>();

  constructor(
    private readonly node: Node<never>,
    private readonly wanted: readonly string[],
  ) {}

  check(machines: readonly SessionMachine[]): void {
    const present = new Set(machines.map((machine) => machine.hostname.toLowerCase()));
    for (const hostname of this.wanted) {
      if (present.has(hostname) || this.#told.has(hostname)) continue;
      this.#told.add(hostname);
      this.node.warn(say('log.noSuchMachine', { hostname }));
    }
  }
}
