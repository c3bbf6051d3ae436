// Types for testing.mjs (plain JavaScript, so `pnpm start` and the smoke test run it without a build).
import type { ChildProcess } from 'node:child_process';

/** Red.js of the Node-RED 4.1 this package is developed against. */
export const NODE_RED_4_RED_JS: string;

/** Copies the built package into `<userDir>/node_modules` as npm would install it, and lists it in the user dir's package.json. */
export function installPackage(userDir: string): void;

/** Lists `name@version` in the user dir's package.json, as npm would, so the palette manager shows it installed. */
export function addDependency(userDir: string, name: string, version: string): void;

export interface SettingsOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** False stores credentials unencrypted; undefined lets Node-RED make a key of its own. */
  credentialSecret?: string | false;
  /** Lets the editor's palette manager install nodes. */
  palette?: boolean;
  logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
  /** More plain settings, e.g. `nodesDir` or `apiMaxLength`. */
  settings?: Record<string, unknown>;
  /** JavaScript source of more settings properties (each ending in a comma), for settings that need functions. */
  extra?: string;
}

/** Writes `<userDir>/settings.js` for a quiet, offline Node-RED on 127.0.0.1 and returns its path. */
export function writeSettings(userDir: string, options?: SettingsOptions): string;

export interface StartOptions {
  /** The Node binary (default: the one running the caller). */
  node?: string;
  /** Arguments for the Node binary, e.g. `--expose-gc`. */
  nodeArgs?: string[];
  /** Node-RED's red.js (default: NODE_RED_4_RED_JS). */
  redJs?: string;
  userDir: string;
  /** Default: `<userDir>/settings.js`. */
  settingsFile?: string;
  /** Resolve only once the flows have started too: a flow's HTTP endpoints exist only then. */
  waitForFlows?: boolean;
  timeoutMs?: number;
  /** Copies Node-RED's output to this process's stdout. */
  echo?: boolean;
  /** Sees every chunk Node-RED prints. */
  onOutput?: (text: string) => void;
}

export interface NodeRedProcess {
  /** The editor's origin, e.g. http://127.0.0.1:41234 */
  url: string;
  pid: number;
  /** What Node-RED printed (the last 2 million characters). */
  output(): string;
  running(): boolean;
  /** SIGINT, as Ctrl-C would (SIGKILL after 15 s); resolves once it has exited. Idempotent. */
  stop(): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  child: ChildProcess;
}

/** Starts Node-RED; rejects with the end of its log (after stopping it) when it exits or does not come up in time. */
export function startNodeRed(options: StartOptions): Promise<NodeRedProcess>;

export interface SmokeRuntime {
  /** Says which runtime failed, e.g. "Node-RED 5 on Node 24". */
  name: string;
  /** Its folder in `<work>/runtimes`, kept for the next run. */
  dir: string;
  /** What npm installs for it, e.g. `node-red@5`. */
  packages: string[];
  /** The Node binary it runs on (default: the one running the caller). */
  node?: string;
}

/**
 * Packs the package, installs the tarball into a fresh user dir per runtime and checks each Node-RED loads the
 * nodes, runs a flow against the simulator and keeps the drive token out of its exports. Rejects naming every
 * runtime that failed. Runtimes and npm's cache stay in `work`.
 */
export function smokeTest(options: { work: string; runtimes: SmokeRuntime[] }): Promise<void>;
