// Starts a Node-RED (any version, on any Node binary) as a child process and stops it cleanly. Shared by the
// smoke test and, through `@stagelink/node-red/testing`, `pnpm start`, the benchmarks, hardening and browser tests.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The Node-RED 4.1 this package is developed against, for callers that bring no other runtime. */
export const NODE_RED_4_RED_JS = join(dirname(createRequire(import.meta.url).resolve('node-red/package.json')), 'red.js');

/** Node-RED's start-up lines in English and in German (a runtime whose `lang` is `de`). */
const LISTENING = /(?:Server now running at|Server wird jetzt auf) (http:\/\/[^\s/]+)\//;
const FLOWS_STARTED = /Started flows|Flows sind gestartet/;

/** A long hardening run at debug level prints far more than a failure message needs. */
const KEPT_OUTPUT_CHARS = 2_000_000;

/**
 * Writes `settings.js` into `userDir`: a quiet, offline runtime on 127.0.0.1. `palette` lets the editor install
 * nodes; `settings` is more plain JSON (e.g. `nodesDir`); `extra` is JavaScript source for settings that need
 * functions, e.g. an adminAuth block or a functionGlobalContext.
 */
export function writeSettings(userDir, { port = 0, credentialSecret, palette = false, logLevel = 'info', settings = {}, extra = '' } = {}) {
  const all = {
    uiHost: '127.0.0.1',
    uiPort: port,
    flowFile: 'flows.json',
    credentialSecret,
    // No network calls and no questions on an air-gapped machine.
    telemetry: { enabled: false, updateNotification: false },
    diagnostics: { enabled: false, ui: false },
    editorTheme: { tours: false, palette: { catalogues: [] } },
    externalModules: { autoInstall: false, palette: { allowInstall: palette } },
    logging: { console: { level: logLevel, metrics: false, audit: false } },
    ...settings,
  };
  const file = join(userDir, 'settings.js');
  writeFileSync(file, `module.exports = {\n  ...${JSON.stringify(all, null, 2)},\n${extra}\n};\n`);
  return file;
}

/**
 * Starts Node-RED and resolves once it listens (and, with `waitForFlows`, once its flows have started: a flow's
 * HTTP endpoints exist only then), with its URL, its process and what it printed. Rejects (after stopping it) if
 * it exits or does not come up within `timeoutMs`. `nodeArgs` go to the Node binary (profiling, --expose-gc);
 * `onOutput` sees every chunk it prints.
 */
export function startNodeRed({
  node = process.execPath,
  nodeArgs = [],
  redJs = NODE_RED_4_RED_JS,
  userDir,
  settingsFile = join(userDir, 'settings.js'),
  waitForFlows = false,
  timeoutMs = 90_000,
  echo = false,
  onOutput = () => {},
}) {
  const child = spawn(node, [...nodeArgs, redJs, '--userDir', userDir, '--settings', settingsFile], {
    cwd: userDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let kept = '';
  const output = () => kept;
  const record = (chunk) => {
    const text = chunk.toString();
    kept = (kept + text).slice(-KEPT_OUTPUT_CHARS);
    if (echo) process.stdout.write(text);
    onOutput(text);
  };
  child.stdout.on('data', record);
  child.stderr.on('data', record);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const running = () => child.exitCode === null && child.signalCode === null;

  let stopping;
  const stop = () => (stopping ??= stopChild(child, exited, running));

  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = () => {
      settled = true;
      clearTimeout(timer);
      child.stdout.off('data', watch);
    };
    const fail = (reason) => {
      if (settled) return;
      settle();
      void stop().then(() => reject(new Error(`Node-RED ${reason}\n--- Node-RED log ---\n${kept.slice(-3000)}`)));
    };
    const watch = () => {
      const url = LISTENING.exec(kept)?.[1];
      if (!url || (waitForFlows && !FLOWS_STARTED.test(kept))) return;
      settle();
      resolve({ url, pid: child.pid, output, running, stop, exited, child });
    };
    const timer = setTimeout(() => fail(`did not start within ${timeoutMs} ms`), timeoutMs);
    void exited.then(({ code, signal }) => fail(`exited (code ${code}, signal ${signal})`));
    child.on('error', (error) => fail(`could not be started: ${error.message}`));
    child.stdout.on('data', watch);
  });
}

async function stopChild(child, exited, running) {
  if (!running()) return;
  child.kill('SIGINT');
  const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(force);
}
