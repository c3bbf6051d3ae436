import { RequestArrivals } from './arrivals.js';
import { ControlPanel } from './control.js';
import { registerCoreActions } from './control-actions.js';
import { sessionToAnnounce } from './dnssd/announcements.js';
import { SessionAnnouncer } from './dnssd/announcer.js';
import { startDriveService, type DriveService } from './drive/drive-service.js';
import { Faults } from './faults.js';
import { startHttpServer } from './http-server.js';
import { LiveLayers, LiveUpdateServer, registerLiveActions, type LiveWorld } from './live/index.js';
import { silentLog } from './log.js';
import { SMC_ACCOUNT, startManagementController } from './management-controller.js';
import { createMediaServerApp, type SmcAccount } from './media-server-app.js';
import { resolveOptions, sessionHostname, type Dialect, type ResolvedOptions, type SimulatorOptions } from './options.js';
import { SessionMachines, type SessionMachineView } from './session/session-machines.js';
import { SESSION_HOSTS } from './state/seed/session.js';
import { SessionState } from './state/session-state.js';
import { summarise } from './summary.js';

export interface Simulator {
  readonly options: ResolvedOptions;
  readonly mediaServer: {
    /** The director's address (the only machine's, outside the `session` scenario). */
    readonly url: string;
    readonly port: number;
  };
  /**
   * The machine's management controller in the r34 dialect (the director's at the time it is read, in `session`):
   * the hardware family is served there, writes with this account as HTTP Basic. Undefined where the hardware
   * family shares the API address.
   */
  readonly smc: ({ readonly url: string } & SmcAccount) | undefined;
  /** The machines of the `session` scenario, each on its own loopback alias; empty in the other scenarios. */
  machines(): SessionMachineView[];
  /** The drive service: URL, demo token, the demo drive's ids and what it received. Closed by `close`. */
  readonly drive: Omit<DriveService, 'close'>;
  /** The session model now. `reset` replaces it: read it again after a reset rather than keeping it. */
  readonly state: SessionState;
  readonly faults: Faults;
  /** The requests that reached the machines, counted as they arrive (a cue whose client gave up included). */
  readonly arrivals: Pick<RequestArrivals, 'count'>;
  /** The live-update endpoint, with its faults and socket counts. */
  readonly live: LiveUpdateServer;
  /** `/__sim/control`; register more actions on it. */
  readonly control: ControlPanel;
  /** Rebuilds the session from scenario and seed, logs out, clears the faults and the arrivals. */
  reset(): void;
  /** Closes every server and every socket. Safe to call more than once. */
  close(): Promise<void>;
}

interface MachineServers {
  readonly url: string;
  readonly port: number;
  /** The director's management controller, where it has one of its own. */
  readonly smcUrl: string | undefined;
  machines(): SessionMachineView[];
  close(): Promise<void>;
}

/** Starts a simulated media-server session and the drive service. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const resolved = resolveOptions(options);
  const log = options.log ?? silentLog;
  const hostname = resolved.scenario === 'session' ? SESSION_HOSTS.director : sessionHostname(resolved.host);
  const newState = () =>
    new SessionState({ scenario: resolved.scenario, machines: resolved.machines, transports: resolved.transports, seed: resolved.seed, hostname, dialect: resolved.dialect, clock: options.clock });
  let state = newState();
  const faults = new Faults();
  const arrivals = new RequestArrivals();
  const control: ControlPanel = new ControlPanel(() => summarise(state, faults, control.actionNames));
  const shutdown = new AbortController();
  // Reads the state through `state`, which reset replaces.
  const live = new LiveUpdateServer(liveWorld(resolved.dialect, () => state), resolved.seed, { backToBackMs: resolved.backToBackMs });
  const announcer = options.dnssd ? new SessionAnnouncer(resolved.dialect, (message) => log({ event: 'error', message })) : undefined;
  const target = {
    faults,
    get state() {
      return state;
    },
    reset() {
      state.hardware.releaseHeld();
      state = newState();
      faults.clear();
      arrivals.clear();
      live.clearFaults();
    },
  };
  registerCoreActions(control, target);
  registerLiveActions(control, live);
  const app = { state: () => state, faults, arrivals, control, log, signal: shutdown.signal };

  const servers: MachineServers =
    resolved.scenario === 'session'
      ? await startSessionMachines(resolved.port, { ...app, live, onDirectorMoved: () => announce() })
      : await startSingleMachine(resolved, app, live);
  const announce = (): void => announcer?.announce(sessionToAnnounce(state, servers.port, servers.machines()));
  announce();
  const drive = await startDriveService({ host: resolved.host, port: resolved.drivePort, seed: resolved.seed }).catch(async (error: unknown) => {
    await servers.close();
    throw error;
  });
  let closing: Promise<void> | undefined;
  return {
    options: resolved,
    get smc() {
      const url = servers.smcUrl;
      return url === undefined ? undefined : { url, ...SMC_ACCOUNT };
    },
    get mediaServer() {
      return { url: servers.url, port: servers.port };
    },
    machines: () => servers.machines(),
    drive,
    get state() {
      return state;
    },
    faults,
    arrivals,
    live,
    control,
    reset: () => target.reset(),
    close: () => {
      closing ??= (async () => {
        shutdown.abort();
        state.hardware.releaseHeld();
        live.close();
        await Promise.all([servers.close(), drive.close(), announcer?.close()]);
      })();
      return closing;
    },
  };
}

/** The session as the live-update server sees it, read through `state`, which reset replaces. */
function liveWorld(dialect: Dialect, state: () => SessionState): LiveWorld {
  const transport = (name: string) => {
    const transports = state().transports.list();
    return name === 'default' ? transports[0] : transports.find((candidate) => candidate.name === name);
  };
  // The session model has no layers: the stream keeps them, one set per session so that a reset starts them again.
  const layers = new WeakMap<SessionState, LiveLayers>();
  return {
    dialect,
    machineHostnames: () => state().machines.hostnames(),
    fixedFps: (hostname) => state().fixedFps.get(hostname.toLowerCase()),
    hasTakenOverFailedMachine: (uid) => state().failover.hasTakenOverFailedMachine(uid),
    transport,
    transportNames: () => state().transports.list().map(({ name }) => name),
    transportPlayer: (name) => {
      const found = transport(name);
      if (!found) return undefined;
      const { track, time, playmode } = state().transports.positionOf({ uid: found.uid });
      return { track: { uid: track.uid, name: track.name }, time, playmode };
    },
    layers: () => {
      const current = state();
      const found = layers.get(current) ?? new LiveLayers();
      layers.set(current, found);
      return found;
    },
    setTransportProperty: (name, key, value) => {
      const found = transport(name);
      if (!found) return;
      const transports = state().transports;
      const ref = { uid: found.uid };
      try {
        if (typeof value === 'boolean') transports.setEngaged([{ transport: ref, engaged: value }]);
        else if (key === 'volume') transports.setVolume([{ transport: ref, value }]);
        else transports.setBrightness([{ transport: ref, value }]);
      } catch {
        // A level outside 0 to 1: the server ignores it.
      }
    },
  };
}

type AppParts = Omit<Parameters<typeof createMediaServerApp>[0], 'refuse'>;

/**
 * One machine. In the r34 dialect its hardware family is served by a management controller of its own, on
 * another port, with an account: as a shipping machine's SMC on the management network.
 */
async function startSingleMachine(resolved: ResolvedOptions, app: AppParts, live: LiveUpdateServer): Promise<MachineServers> {
  const ownSmc = app.state().words.ownManagementController;
  const handle = createMediaServerApp({ ...app, serves: ownSmc ? 'session' : 'all' });
  const http = await startHttpServer({ host: resolved.host, port: resolved.port, handle, log: app.log });
  live.attach(http.server);
  const smc = ownSmc
    ? await startManagementController(resolved.host, app).catch(async (error: unknown) => {
        await http.close();
        throw error;
      })
    : undefined;
  return {
    url: http.url,
    port: http.port,
    smcUrl: smc?.url,
    machines: () => [],
    close: async () => {
      await Promise.all([http.close(), smc?.close()]);
    },
  };
}

async function startSessionMachines(
  port: number,
  options: ConstructorParameters<typeof SessionMachines>[0],
): Promise<MachineServers> {
  const machines = new SessionMachines(options);
  machines.registerControlActions(options.control);
  await machines.start(port).catch(async (error: unknown) => {
    await machines.close();
    throw error;
  });
  return {
    get url() {
      return machines.directorUrl;
    },
    get port() {
      return machines.port;
    },
    get smcUrl() {
      return machines.directorSmcUrl;
    },
    machines: () => machines.machines(),
    close: () => machines.close(),
  };
}
