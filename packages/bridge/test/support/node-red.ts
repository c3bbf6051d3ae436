import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

const RED_JS = join(dirname(createRequire(import.meta.url).resolve('node-red/package.json')), 'red.js');

export interface NodeRed {
  /** What it printed so far, for a failure message. */
  output(): string;
  /** SIGINT, as Ctrl-C would (SIGKILL after 15 s), then its user dir removed. Safe to call more than once. */
  close(): Promise<void>;
}

/**
 * A real Node-RED (the workspace's 4.1) in a fresh user dir, running `flows` with no stagelink nodes installed,
 * as a venue's Node-RED would: loopback only, offline, no editor credentials. Resolves once the flows started.
 * (`@stagelink/node-red/testing` has a fuller launcher, but that package depends on this one.)
 */
export async function startNodeRed(flows: object[], timeoutMs = 60_000): Promise<NodeRed> {
  const userDir = await mkdtemp(join(tmpdir(), 'stagelink-bridge-node-red-'));
  const settings = {
    uiHost: '127.0.0.1',
    uiPort: 0,
    flowFile: 'flows.json',
    credentialSecret: false,
    telemetry: { enabled: false, updateNotification: false },
    diagnostics: { enabled: false, ui: false },
    editorTheme: { tours: false, palette: { catalogues: [] } },
    externalModules: { autoInstall: false, palette: { allowInstall: false } },
    logging: { console: { level: 'info', metrics: false, audit: false } },
  };
  await writeFile(join(userDir, 'settings.js'), `module.exports = ${JSON.stringify(settings, null, 2)};\n`);
  await writeFile(join(userDir, 'flows.json'), JSON.stringify(flows));
  const child = spawn(process.execPath, [RED_JS, '--userDir', userDir, '--settings', join(userDir, 'settings.js')], { cwd: userDir, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = once(child, 'exit');
  let printed = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (printed = (printed + chunk.toString('utf8')).slice(-200_000)));
  let closing: Promise<void> | undefined;
  const nodeRed: NodeRed = {
    output: () => printed,
    close: () =>
      (closing ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGINT');
          const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
          await exited;
          clearTimeout(force);
        }
        await rm(userDir, { recursive: true, force: true });
      })()),
  };
  const deadline = Date.now() + timeoutMs;
  while (!printed.includes('Started flows')) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      await nodeRed.close();
      throw new Error(`Node-RED did not start its flows within ${timeoutMs} ms:\n${printed.slice(-3000)}`);
    }
    await delay(50);
  }
  return nodeRed;
}
