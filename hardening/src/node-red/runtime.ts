import { installPackage, startNodeRed as startRuntime, writeSettings } from '@stagelink/node-red/testing';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive } from '../support/process-stats.js';
import type { LogWatch } from '../support/log-watch.js';

/** More arguments for Node-RED's Node binary, e.g. `HARDENING_NODE_ARGS=--cpu-prof`. */
const NODE_ARGS = process.env.HARDENING_NODE_ARGS?.split(' ').filter(Boolean) ?? [];

/** Users of the admin API: one with every permission, one who may only read. */
export const ADMIN_USER = 'hardening-admin';
export const VIEWER_USER = 'hardening-viewer';

export interface NodeRedRuntime {
  readonly url: string;
  readonly pid: number;
  readonly userDir: string;
  /** The password of both users (random per run). */
  readonly password: string;
  /** Everything Node-RED printed, watched for secrets and kept (the tail) for failure messages. */
  readonly log: LogWatch;
  /** Undefined while it runs. */
  exitCode(): number | null | undefined;
  alive(): boolean;
  stop(): Promise<void>;
}

/**
 * A real Node-RED 4.1 in its own process: a throw-away user dir with @stagelink/node-red installed the way npm
 * would (its published files), admin auth on, encrypted credentials, a free port on 127.0.0.1.
 */
export async function startNodeRed(log: LogWatch): Promise<NodeRedRuntime> {
  const userDir = mkdtempSync(join(tmpdir(), 'stagelink-hardening-red-'));
  const password = randomBytes(12).toString('hex');
  const removeUserDir = (): void => rmSync(userDir, { recursive: true, force: true });
  try {
    installPackage(userDir);
    writeSettings(userDir, {
      credentialSecret: randomBytes(16).toString('hex'),
      // Debug level: core's debug lines reach the log too, and the log is scanned for the drive token.
      logLevel: 'debug',
      settings: { apiMaxLength: '50mb' },
      extra: adminAuth(password) + GARBAGE_COLLECTION,
    });
    const red = await startRuntime({ userDir, nodeArgs: ['--expose-gc', ...NODE_ARGS], onOutput: (text) => log.push(text) });
    return {
      url: red.url,
      pid: red.pid,
      userDir,
      password,
      log,
      exitCode: () => (red.running() ? undefined : red.child.exitCode),
      alive: () => red.running() && isAlive(red.pid),
      stop: () => red.stop().then(removeUserDir),
    };
  } catch (error) {
    removeUserDir();
    throw error;
  }
}

/** Both users, with the run's password. */
function adminAuth(password: string): string {
  const users = `{ '${ADMIN_USER}': { username: '${ADMIN_USER}', permissions: '*' }, '${VIEWER_USER}': { username: '${VIEWER_USER}', permissions: 'read' } }`;
  return `  adminAuth: {
    type: 'credentials',
    users: (username) => Promise.resolve(${users}[username] || null),
    authenticate: (username, password) => Promise.resolve(password === '${password}' ? ${users}[username] || null : null),
  },
`;
}

/**
 * Lets the harness flow collect garbage before the suite reads memory (node runs with --expose-gc), and answer the
 * JavaScript memory left in use after it (heap and buffers): what a leaked listener, timer or socket would grow.
 */
const GARBAGE_COLLECTION = `  functionGlobalContext: {
    hardeningCollectGarbage: () => {
      if (typeof global.gc !== 'function') return undefined;
      global.gc();
      global.gc();
      const { heapUsed, external } = process.memoryUsage();
      return heapUsed + external;
    },
  },`;
