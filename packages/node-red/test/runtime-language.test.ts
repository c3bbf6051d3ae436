import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPackage, startNodeRed, writeSettings } from '../scripts/lib/testing.mjs';
import { savedNode } from './support/editor-defaults.js';

/** A port nothing listens on: a connection to it is refused at once. */
const NOWHERE = 'http://127.0.0.1:9';

interface RunningNodeRed {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * The nodes' runtime words in a real Node-RED whose `lang` is German, as a German venue runs it: its registry
 * loads the package's catalogs and its translator answers for them (the test helper's translator answers keys).
 * Its own words and core's failures (a server that cannot be reached) are said in German.
 */
describe('a real Node-RED set to German', () => {
  let userDir: string;
  let nodeRed: RunningNodeRed;

  beforeAll(async () => {
    userDir = mkdtempSync(join(tmpdir(), 'stagelink-nr-de-'));
    installPackage(userDir);
    writeSettings(userDir, { settings: { lang: 'de' } });
    const cue = (id: string, server?: string) => ({ id, z: 'tab', ...savedNode('stagelink-transport', { command: 'play', transport: 'main', ...(server ? { server } : {}) }), wires: [[]] });
    const flow = [
      { id: 'tab', type: 'tab', label: 'Show' },
      { id: 'nowhere', ...savedNode('stagelink-server', { host: NOWHERE }) },
      { id: 'go', type: 'inject', z: 'tab', once: true, onceDelay: 0.2, repeat: '', props: [{ p: 'payload' }], payload: '', payloadType: 'date', wires: [['cue', 'lost']] },
      cue('cue'),
      cue('lost', 'nowhere'),
      // A message longer than the front screen shows: core warns that it cut it, before the SMC refuses it.
      { id: 'smcNowhere', ...savedNode('stagelink-server', { host: NOWHERE, smcHost: NOWHERE }) },
      { id: 'long', type: 'inject', z: 'tab', once: true, onceDelay: 0.2, repeat: '', props: [{ p: 'payload' }], payload: 'x'.repeat(400), payloadType: 'str', wires: [['oled']] },
      { id: 'oled', z: 'tab', ...savedNode('stagelink-oled-out', { server: 'smcNowhere' }), wires: [[]] },
      // A network interface's name where its address belongs: refused at deploy.
      { id: 'byName', ...savedNode('stagelink-server', { host: NOWHERE, dnssd: true, dnssdInterface: 'eth0' }) },
    ];
    writeFileSync(join(userDir, 'flows.json'), JSON.stringify(flow));
    nodeRed = await startNodeRed({ userDir, waitForFlows: true });
  }, 120_000);

  afterAll(async () => {
    await nodeRed?.stop();
    if (userDir) rmSync(userDir, { recursive: true, force: true });
  });

  async function logged(what: string, line: RegExp): Promise<string> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const found = nodeRed.output().split('\n').find((text) => line.test(text));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`Node-RED did not log ${what}:\n${nodeRed.output().slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('logs its own words for a node error in German', async () => {
    const line = await logged('the missing server at the cue', /\[stagelink-transport:cue\] InvalidInputError/);
    expect(line).toContain('InvalidInputError: Kein Medienserver eingerichtet: öffne den Node und wähle oder lege einen stagelink-server an.');
    expect(nodeRed.output()).not.toContain('No media server configured');
  });

  it('logs a failure core reports, a server that cannot be reached, in German with the request it was about', async () => {
    const line = await logged('the refused connection', /\[stagelink-transport:lost\].*ConnectionError/);
    expect(line).toContain(`ConnectionError: POST ${NOWHERE}/api/session/transport/play: `);
    expect(line).toContain('nicht gesendet: der Server ist nicht erreichbar (ECONNREFUSED)');
    expect(line).not.toContain('Could not reach');
  });

  it('logs a warning core gives, a message cut for the front screen, in German', async () => {
    const line = await logged('the cut OLED message', /\[stagelink-server:smcNowhere\] OLED-Nachricht/);
    expect(line).toMatch(/OLED-Nachricht mit 400 Zeichen auf \d+ gekürzt, wie das Gerät es täte\./);
    expect(nodeRed.output()).not.toContain('characters cut to');
  });

  it('refuses a DNS-SD interface that is no IPv4 address in German, at deploy and in Discover', async () => {
    const german = 'Die DNS-SD-Schnittstelle „eth0“ ist keine IPv4-Adresse: die Adresse dieses Rechners im Show-Netz angeben, zum Beispiel 10.0.0.20, oder leer lassen für alle Schnittstellen.';
    const line = await logged('the refused interface', /\[stagelink-server:byName\]/);
    expect(line).toContain(`Die Einstellung des stagelink-server kann nicht funktionieren: ${german}`);
    const answer = await fetch(`${nodeRed.url}/stagelink/discover-machines?dnssdInterface=eth0`);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: german, words: { key: 'error.dnssdInterface', values: { value: 'eth0' } } });
  });

  it('answers the editor\'s lists in German, with the words for an editor in another language', async () => {
    const answer = await fetch(`${nodeRed.url}/stagelink/transports?server=x&host=${encodeURIComponent(NOWHERE)}`);
    expect(answer.status).toBe(502);
    const body = (await answer.json()) as { error: string; words: { key: string; values: Record<string, string> } };
    expect(body.error).toMatch(/^GET http:\/\/127\.0\.0\.1:9\/\S+: nicht gesendet: der Server ist nicht erreichbar \(ECONNREFUSED\)/);
    expect(body.words.key).toBe('errorText.STAGELINK_ERR_CONNECTION_UNSENT');
    expect(body.words.values.message).toMatch(/^Could not reach 127\.0\.0\.1:9/);
    const none = await fetch(`${nodeRed.url}/stagelink/transports`);
    expect(((await none.json()) as { error: string }).error).toBe('Wähle zuerst einen stagelink-server (oder gib seinen Host ein).');
  });
});
