import type { Server } from 'node:http';
import { ControlPanel } from './control.js';
import { registerCoreActions } from './control-actions.js';
import { startDriveService, type DriveService } from './drive/drive-service.js';
import { Faults } from './faults.js';
import { startHttpServer } from './http-server.js';
import { silentLog } from './log.js';
import { createMediaServerApp } from './media-server-app.js';
import { resolveOptions, sessionHostname, type ResolvedOptions, type SimulatorOptions } from './options.js';
import { SessionState } from './state/session-state.js';
import { summarise } from './summary.js';
import { LiveUpdateServer, registerLiveActions } from './live/index.js';

export interface Simulator {
  readonly options: ResolvedOptions;
  readonly mediaServer: {
    readonly url: string;
    readonly port: number;
    /** Attach the live-update `upgrade` listener here. */
    readonly server: Server;
  };
  /** The drive service: URL, demo token, the demo drive's ids and what it received. Closed by `close`. */
  readonly drive: Omit<DriveService, 'close'>;
  /** The session model now. `reset` replaces it: read it again after a reset rather than keeping it. */
  readonly state: SessionState;
  readonly faults: Faults;
  /** The live-update endpoint on the media-server port, with its faults and socket counts. */
  readonly live: LiveUpdateServer;
  /** `/__sim/control`; register more actions on it. */
  readonly control: ControlPanel;
  /** Rebuilds the session from scenario and seed, logs out and clears the faults. */
  reset(): void;
  /** Closes both servers and every socket. Safe to call more than once. */
  close(): Promise<void>;
}

/** Starts a simulated media-server session and the drive service. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const resolved = resolveOptions(options);
  const log = options.log ?? silentLog;
  const newState = () => new SessionState({ scenario: resolved.scenario, seed: resolved.seed, hostname: sessionHostname(resolved.host), clock: options.clock });
  let state = newState();
  const faults = new Faults();
  const control: ControlPanel = new ControlPanel(() => summarise(state, faults, control.actionNames));
  const shutdown = new AbortController();
  // Reads the state through `state`, which reset replaces.
  const live = new LiveUpdateServer(
    { machineHostnames: () => state.machines.hostnames(), hasTakenOverFailedMachine: (uid) => state.failover.hasTakenOverFailedMachine(uid) },
    resolved.seed,
  );
  const target = {
    faults,
    get state() {
      return state;
    },
    reset() {
      state = newState();
      faults.clear();
      live.clearFaults();
    },
  };
  registerCoreActions(control, target);
  registerLiveActions(control, live);
  const handle = createMediaServerApp({ state: () => state, faults, control, log, signal: shutdown.signal });
  const http = await startHttpServer({ host: resolved.host, port: resolved.port, handle, log });
  live.attach(http.server);
  const drive = await startDriveService({ host: resolved.host, port: resolved.drivePort, seed: resolved.seed }).catch(async (error: unknown) => {
    await http.close();
    throw error;
  });
  let closing: Promise<void> | undefined;
  return {
    options: resolved,
    mediaServer: { url: http.url, port: http.port, server: http.server },
    drive,
    get state() {
      return state;
    },
    faults,
    live,
    control,
    reset: () => target.reset(),
    close: () => {
      closing ??= (async () => {
        shutdown.abort();
        live.close();
        await Promise.all([http.close(), drive.close()]);
      })();
      return closing;
    },
  };
}
