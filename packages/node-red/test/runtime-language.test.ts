import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPackage, NODE_RED_4_RED_JS, writeSettings } from '../scripts/lib/testing.mjs';
import { savedNode } from './support/editor-defaults.js';

/**
 * The nodes' runtime words in a real Node-RED whose `lang` is German, as a German venue runs it: its registry
 * loads the package's catalogs and its translator answers for them (the test helper's translator answers keys).
 */
describe('a real Node-RED set to German', () => {
  let userDir: string;
  let nodeRed: ChildProcess;
  let output = '';

  beforeAll(() => {
    userDir = mkdtempSync(join(tmpdir(), 'stagelink-nr-de-'));
    installPackage(userDir);
    writeSettings(userDir, { settings: { lang: 'de' } });
    const flow = [
      { id: 'tab', type: 'tab', label: 'Show' },
      { id: 'go', type: 'inject', z: 'tab', once: true, onceDelay: 0.2, repeat: '', props: [{ p: 'payload' }], payload: '', payloadType: 'date', wires: [['cue']] },
      { id: 'cue', z: 'tab', ...savedNode('stagelink-transport', { command: 'play', transport: 'main' }), wires: [[]] },
    ];
    writeFileSync(join(userDir, 'flows.json'), JSON.stringify(flow));
    // Started here rather than by startNodeRed, which waits for the English start-up lines.
    nodeRed = spawn(process.execPath, [NODE_RED_4_RED_JS, '--userDir', userDir, '--settings', join(userDir, 'settings.js')], { cwd: userDir, stdio: ['ignore', 'pipe', 'pipe'] });
    nodeRed.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    nodeRed.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });

  afterAll(async () => {
    if (nodeRed && nodeRed.exitCode === null) {
      const exited = once(nodeRed, 'exit');
      nodeRed.kill('SIGINT');
      await exited;
    }
    if (userDir) rmSync(userDir, { recursive: true, force: true });
  });

  it('logs a node error in German', async () => {
    const deadline = Date.now() + 60_000;
    while (!output.includes('Flows sind gestartet') || !output.includes('InvalidInputError')) {
      if (Date.now() > deadline || nodeRed.exitCode !== null) throw new Error(`Node-RED did not start its flow in German:\n${output.slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(output).toContain('[stagelink-transport:cue] InvalidInputError: Kein Medienserver eingerichtet: öffne den Node und wähle oder lege einen stagelink-server an.');
    expect(output).not.toContain('No media server configured');
  }, 90_000);
});
