// Starts a Node-RED (any version, on any Node binary) as a child process and stops it cleanly. Shared by the
// smoke test and `pnpm start`.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes `settings.js` into `userDir`. `palette` lets the editor install nodes; `extra` is JavaScript source for
 * more settings (functions allowed), e.g. an adminAuth block; everything else is plain JSON.
 */
export function writeSettings(userDir, { port = 0, credentialSecret, palette = false, extra = '' } = {}) {
  const settings = {
    uiHost: '127.0.0.1',
    uiPort: port,
    flowFile: 'flows.json',
    credentialSecret,
    // No network calls and no questions on an air-gapped machine.
    telemetry: { enabled: false, updateNotification: false },
    diagnostics: { enabled: false, ui: false },
    editorTheme: { tours: false, palette: { catalogues: [] } },
    externalModules: { autoInstall: false, palette: { allowInstall: palette } },
    logging: { console: { level: 'info', metrics: false, audit: false } },
  };
  const file = join(userDir, 'settings.js');
  writeFileSync(file, `module.exports = {\n  ...${JSON.stringify(settings, null, 2)},\n${extra}\n};\n`);
  return file;
}

/**
 * Starts Node-RED and resolves once it listens, with its URL and everything it has logged. Rejects (after
 * stopping it) if it exits or does not come up within `timeoutMs`.
 */
export function startNodeRed({ node = process.execPath, redJs, userDir, settingsFile, timeoutMs = 90_000, echo = false }) {
  const child = spawn(node, [redJs, '--userDir', userDir, '--settings', settingsFile], {
    cwd: userDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = [];
  const onOutput = (chunk) => {
    const text = chunk.toString();
    log.push(text);
    if (echo) process.stdout.write(text);
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };

  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`Node-RED did not start within ${timeoutMs} ms`)), timeoutMs);
    const fail = (error) => {
      clearTimeout(timer);
      void stop().then(() => reject(new Error(`${error.message}\n--- Node-RED log ---\n${log.join('')}`)));
    };
    const watch = () => {
      const match = /Server now running at (http:\/\/[^\s/]+(?::\d+)?)\//.exec(log.join(''));
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off('data', watch);
      resolve({ url: match[1], log, stop, exited, child });
    };
    child.stdout.on('data', watch);
    void exited.then(({ code, signal }) => fail(new Error(`Node-RED exited (code ${code}, signal ${signal})`)));
  });
  return ready;
}
