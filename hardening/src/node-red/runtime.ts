import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isAlive } from '../support/process-stats.js';
import { LogWatch } from '../support/log-watch.js';

const require = createRequire(import.meta.url);
const RED_JS = join(dirname(require.resolve('node-red/package.json')), 'red.js');
const NODES_PACKAGE_DIR = dirname(require.resolve('@stagelink/node-red/package.json'));
const READY_TIMEOUT_MS = 90_000;

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
  installNodes(userDir);
  writeFileSync(join(userDir, 'settings.js'), settingsSource(password));
  const startedAt = log.mark();
  const child = spawn(process.execPath, ['--expose-gc', ...(process.env.HARDENING_NODE_ARGS?.split(' ').filter(Boolean) ?? []), RED_JS, '--userDir', userDir, '--settings', join(userDir, 'settings.js')], {
    cwd: userDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  const stop = async (): Promise<void> => {
    await stopChild(child);
    rmSync(userDir, { recursive: true, force: true });
  };
  try {
    const url = await listeningUrl(child, () => log.textSince(startedAt));
    const pid = child.pid ?? -1;
    return {
      url,
      pid,
      userDir,
      password,
      log,
      exitCode: () => (child.exitCode === null && child.signalCode === null ? undefined : child.exitCode),
      alive: () => child.exitCode === null && child.signalCode === null && isAlive(pid),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Copies what the package publishes (package.json `files`) into node_modules, as `npm install` would. */
function installNodes(userDir: string): void {
  const pkg = JSON.parse(readFileSync(join(NODES_PACKAGE_DIR, 'package.json'), 'utf8')) as { name: string; version: string; files: string[] };
  if (!existsSync(join(NODES_PACKAGE_DIR, 'dist', 'nodes', 'stagelink-server.js'))) {
    throw new Error('The Node-RED nodes are not built: run `pnpm test:hardening` from the repository root (it builds them first).');
  }
  const target = join(userDir, 'node_modules', ...pkg.name.split('/'));
  mkdirSync(target, { recursive: true });
  for (const file of ['package.json', ...pkg.files]) {
    if (existsSync(join(NODES_PACKAGE_DIR, file))) cpSync(join(NODES_PACKAGE_DIR, file), join(target, file), { recursive: true });
  }
  writeFileSync(join(userDir, 'package.json'), JSON.stringify({ name: 'hardening-project', private: true, dependencies: { [pkg.name]: pkg.version } }));
}

function settingsSource(password: string): string {
  const settings = {
    uiHost: '127.0.0.1',
    uiPort: 0,
    flowFile: 'flows.json',
    credentialSecret: randomBytes(16).toString('hex'),
    telemetry: { enabled: false, updateNotification: false },
    diagnostics: { enabled: false, ui: false },
    editorTheme: { tours: false, palette: { catalogues: [] } },
    externalModules: { autoInstall: false, palette: { allowInstall: false } },
    // Debug level: core's debug lines reach the log too, and the log is scanned for the drive token.
    logging: { console: { level: 'debug', metrics: false, audit: false } },
    apiMaxLength: '50mb',
  };
  const users = `{ '${ADMIN_USER}': { username: '${ADMIN_USER}', permissions: '*' }, '${VIEWER_USER}': { username: '${VIEWER_USER}', permissions: 'read' } }`;
  return `const users = ${users};
module.exports = {
  ...${JSON.stringify(settings, null, 2)},
  adminAuth: {
    type: 'credentials',
    users: (username) => Promise.resolve(users[username] || null),
    authenticate: (username, password) => Promise.resolve(password === '${password}' ? users[username] || null : null),
  },
  // Lets the harness flow collect garbage before the suite reads memory (node runs with --expose-gc), and answer the
  // JavaScript memory left in use after it (heap and buffers): what a leaked listener, timer or socket would grow.
  functionGlobalContext: {
    hardeningCollectGarbage: () => {
      if (typeof global.gc !== 'function') return undefined;
      global.gc();
      global.gc();
      const { heapUsed, external } = process.memoryUsage();
      return heapUsed + external;
    },
  },
};
`;
}

async function listeningUrl(child: ChildProcess, output: () => string): Promise<string> {
  const running = new Promise<string>((resolve) => {
    const onOutput = (): void => {
      const match = /Server now running at (http:\/\/[^\s/]+)\//.exec(output());
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onOutput);
  });
  const failed = once(child, 'exit').then(() => 'exited');
  const timeout = new Promise<string>((resolve) => setTimeout(resolve, READY_TIMEOUT_MS, 'did not start in time').unref());
  const outcome = await Promise.race([running, failed, timeout]);
  if (outcome.startsWith('http')) return outcome;
  throw new Error(`Node-RED ${outcome}:\n${output().slice(-3000)}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGINT');
  const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(force);
}
