import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cpuProfileArgs } from './profiling.js';

/** A Node-RED runtime in its own process, with a flow file and loose node files, in a throw-away user dir. */
export interface NodeRedProcess {
  url: string;
  /** For reading its CPU time (timing.ts, processCpuMs). */
  pid: number;
  /** SIGINT, as Ctrl-C would; resolves when Node-RED has exited and its user dir is gone. */
  stop(): Promise<void>;
}

export interface NodeRedOptions {
  flows: unknown[];
  /** A folder of node files (`<type>.js` + `<type>.html`) loaded as Node-RED's `nodesDir`. */
  nodesDir: string;
}

const READY_TIMEOUT_MS = 60_000;
const RED_JS = join(dirname(createRequire(import.meta.url).resolve('node-red/package.json')), 'red.js');

/**
 * Settings for a quiet, offline runtime on a free port. `now` in the global context gives function nodes a
 * sub-millisecond clock (`global.get('now')()`), which the benchmark flows time cues with.
 */
function settingsSource(nodesDir: string): string {
  const settings = {
    uiHost: '127.0.0.1',
    uiPort: 0,
    flowFile: 'flows.json',
    nodesDir,
    credentialSecret: false,
    telemetry: { enabled: false, updateNotification: false },
    diagnostics: { enabled: false, ui: false },
    editorTheme: { tours: false, palette: { catalogues: [] } },
    externalModules: { autoInstall: false, palette: { allowInstall: false } },
    logging: { console: { level: 'info', metrics: false, audit: false } },
  };
  return `module.exports = {\n  ...${JSON.stringify(settings, null, 2)},\n  functionGlobalContext: { now: () => performance.now() },\n};\n`;
}

export async function startNodeRed({ flows, nodesDir }: NodeRedOptions): Promise<NodeRedProcess> {
  const userDir = await mkdtemp(join(tmpdir(), 'stagelink-bench-node-red-'));
  await writeFile(join(userDir, 'flows.json'), JSON.stringify(flows));
  await writeFile(join(userDir, 'settings.js'), settingsSource(nodesDir));
  const child = spawn(process.execPath, [...cpuProfileArgs(), RED_JS, '--userDir', userDir, '--settings', join(userDir, 'settings.js')], {
    cwd: userDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = async (): Promise<void> => {
    await stopChild(child);
    await rm(userDir, { recursive: true, force: true });
  };
  try {
    return { url: await listeningUrl(child), pid: child.pid ?? Number.NaN, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The URL of Node-RED's "Server now running at" line, once the flows have started too (the HTTP endpoints of a
 * flow exist only then); fails with the log when Node-RED exits or takes too long.
 */
async function listeningUrl(child: ChildProcess): Promise<string> {
  let log = '';
  const running = new Promise<string>((resolve) => {
    const onOutput = (chunk: Buffer): void => {
      log += chunk.toString();
      const match = /Server now running at (http:\/\/[^\s/]+)\//.exec(log);
      if (match?.[1] && log.includes('Started flows')) resolve(match[1]);
    };
    child.stdout?.on('data', onOutput);
    child.stderr?.on('data', onOutput);
  });
  const failed = Promise.race([once(child, 'exit'), once(child, 'error')]).then(() => 'exited');
  const timeout = new Promise<string>((resolve) => setTimeout(resolve, READY_TIMEOUT_MS, 'did not start in time').unref());
  const outcome = await Promise.race([running, failed, timeout]);
  if (outcome.startsWith('http')) return outcome;
  throw new Error(`Node-RED ${outcome}:\n${log.slice(-2000)}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGINT');
  const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(force);
}
