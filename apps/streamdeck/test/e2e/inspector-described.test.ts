/**
 * The transport inspector's command picker against the director's own description of its API, through the fake
 * Stream Deck app and the built plugin. The r34 simulator describes every transport command (it lacks only
 * `looks`; transport speed is described and refused at the call while the project disables it), so a build that
 * lacks one is the simulator behind a pass-through that drops `transport/speed` from the description it serves:
 * the picker lists speed disabled with why, and a key set to it says N/A and sends nothing. The simulator
 * as it is (r34, and the documents' dialect without a description) has nothing marked.
 */
import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { TRANSPORT_COMMAND_LABELS, TRANSPORT_COMMAND_NAMES } from '@stagelink/core';
import type { Dialect, Simulator } from '@stagelink/simulator';
import type { JSDOM } from 'jsdom';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeStreamDeck } from '../harness/fake-stream-deck.js';
import { wordsOf } from '../unit/face-reading.js';
import { openInspector, until } from './inspector-dom.js';
import { startSim } from './simulator.js';

const TRANSPORT = 'com.stagelink.mediaserver.transport';
const DESCRIPTION_PATH = '/docs/session/d3api.swagger.json';
const SPEED_PATH = '/api/session/transport/speed';

/** The note under a field of a settings page. */
const noteOf = (page: JSDOM, id: string): string => page.window.document.querySelector(`[data-note-for="${id}"]`)?.textContent ?? '';

/** The command picker's choices the page disabled, by value, with their labels. */
function disabledChoices(page: JSDOM): Record<string, string> {
  const select = page.window.document.getElementById('command') as HTMLSelectElement;
  return Object.fromEntries([...select.options].filter((option) => option.disabled).map((option) => [option.value, option.textContent ?? '']));
}

/**
 * The simulator as a build whose description lacks `paths`: every request and the live socket go through to it
 * unchanged, and its own description is served with those paths taken out.
 */
async function withoutDescribed(sim: Simulator, paths: readonly string[] | 'no description'): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(sim.mediaServer.url);
  const server: Server = createServer((incoming, outgoing) => {
    if (incoming.url === DESCRIPTION_PATH && paths === 'no description') {
      outgoing.writeHead(404, { 'content-type': 'text/plain' });
      outgoing.end('Not Found');
      return;
    }
    const forward = request({ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers }, (answer) => {
      if (incoming.url !== DESCRIPTION_PATH || answer.statusCode !== 200) {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const description = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { paths: Record<string, unknown> };
        for (const path of paths === 'no description' ? [] : paths) delete description.paths[path];
        outgoing.writeHead(200, { 'content-type': 'application/json' });
        outgoing.end(JSON.stringify(description));
      });
    });
    forward.on('error', () => outgoing.destroy());
    incoming.pipe(forward);
  });
  server.on('upgrade', (incoming, socket, head) => {
    const upstream = connect(Number(target.port), target.hostname, () => {
      const headers = Object.entries(incoming.headers).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((each) => `${name}: ${String(each)}`));
      upstream.write(`${incoming.method} ${incoming.url} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("the transport command picker and the director's description", () => {
  let deck: FakeStreamDeck | undefined;
  let sim: Simulator | undefined;
  let proxy: { close(): Promise<void> } | undefined;
  let dom: JSDOM | undefined;

  afterEach(async () => {
    dom?.window.close();
    await deck?.close();
    await proxy?.close();
    await sim?.close();
    dom = deck = proxy = sim = undefined;
  });

  async function desk(dialect: Dialect, lacking?: readonly string[] | 'no description'): Promise<{ deck: FakeStreamDeck; sim: Simulator }> {
    sim = await startSim(0, undefined, dialect);
    const through = lacking === undefined ? undefined : await withoutDescribed(sim, lacking);
    proxy = through;
    deck = await FakeStreamDeck.start();
    deck.globalSettings.host = through?.url ?? sim.mediaServer.url;
    await deck.launch();
    return { deck, sim };
  }

  it('lists a command the description lacks disabled, with why, and a key set to it says N/A and sends nothing', async () => {
    const { deck, sim } = await desk('r34', ['/transport/speed']);
    deck.appear({ action: TRANSPORT, context: 'speed', settings: { command: 'speed', transport: 'main', speed: 1.5 } });
    dom = openInspector(deck, 'transport.html', 'speed');
    const page = dom;

    const disabled = await until('speed marked in the command picker', () => {
      const marked = disabledChoices(page);
      return 'speed' in marked ? marked : undefined;
    });
    expect(disabled).toEqual({ speed: 'speed: not offered by this director (API 2.0.3)' });
    // The key is set to it: the note under the picker says why its cue is refused.
    expect(noteOf(page, 'command')).toBe('speed: not offered by this director (API 2.0.3). A key set to it is refused unsent.');

    deck.press('speed');
    await deck.waitForLatestImage('speed', (svg) => JSON.stringify(wordsOf(svg)) === JSON.stringify(['SPEED', 'N/A']), 'the key saying N/A');
    expect(deck.sent('showAlert', 'speed')).toHaveLength(1);
    expect(sim.arrivals.count('POST', SPEED_PATH)).toBe(0);
  });

  /** Opens the page of a play key and waits until the plugin has answered which commands the director lacks. */
  async function pickerOf(deck: FakeStreamDeck): Promise<JSDOM> {
    deck.appear({ action: TRANSPORT, context: 'play', settings: { command: 'play', transport: 'main' } });
    dom = openInspector(deck, 'transport.html', 'play');
    const page = dom;
    await until('the connection line', () => (page.window.document.getElementById('connection')?.textContent ?? '').includes('Connected'));
    // The marks are asked with the connection line's first question; busy until their answer is in.
    await until('the marks answered', () => !page.window.document.getElementById('command')?.hasAttribute('aria-busy'));
    return page;
  }

  it('marks speed on the documents\' simulator, whose description has only the documents\' commands', async () => {
    const { deck } = await desk('spec');
    const page = await pickerOf(deck);
    expect(disabledChoices(page)).toEqual({ speed: 'speed: not offered by this director (API 1.0.0)' });
    // Play is offered: its key's note says nothing.
    expect(noteOf(page, 'command')).toBe('');
  });

  it.each([
    ['the r34 simulator, which describes every transport command', undefined],
    ['a build without a description', 'no description' as const],
  ])('marks nothing on %s', async (_, lacking) => {
    const { deck } = await desk('r34', lacking);
    const page = await pickerOf(deck);
    expect(disabledChoices(page)).toEqual({});
    const select = page.window.document.getElementById('command') as HTMLSelectElement;
    expect([...select.options].filter((option) => option.value !== '').map((option) => option.textContent)).toEqual(
      TRANSPORT_COMMAND_NAMES.map((command) => TRANSPORT_COMMAND_LABELS[command]),
    );
    expect(noteOf(page, 'command')).toBe('');
  });
});
