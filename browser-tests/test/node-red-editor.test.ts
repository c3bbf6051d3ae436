/**
 * The Node-RED editor in Chromium, set up as `pnpm start` sets it up (the simulator, the stagelink nodes and the
 * example flows): the palette, a transport node built and deployed by hand, the drive's token, every dialog and
 * every node's help.
 */
import { MediaServer } from '@stagelink/core';
import { simControl, startSimulator } from '@stagelink/simulator';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { NodeRedEditor } from './support/node-red-editor.js';
import { startNodeRedDemo, type NodeRedDemo } from './support/node-red-demo.js';
import { saveScreenshot } from './support/screenshots.js';
import { until } from './support/until.js';

const NODE_RED_PACKAGE = dirname(createRequire(import.meta.url).resolve('@stagelink/node-red/package.json'));
const NODE_TYPES = Object.keys((JSON.parse(readFileSync(join(NODE_RED_PACKAGE, 'package.json'), 'utf8')) as { 'node-red': { nodes: Record<string, string> } })['node-red'].nodes);
/** Config nodes live in the configuration sidebar, not the palette. */
const CONFIG_TYPES = ['stagelink-server', 'stagelink-drive'];
const SERVER_NAME = 'show director';
/** A port nothing listens on: a connection to it is refused at once. */
const NOWHERE = 'http://127.0.0.1:9';
const ASSET_FLOW = 'stagelink: asset versions';
const SHOW_FLOW = 'stagelink: show control';
const MONITOR_FLOW = 'stagelink: show monitor';
/** The example flow each node's dialog is opened on: the show-control one unless the node is used elsewhere. */
const FLOW_OF: Record<string, string> = { 'stagelink-drive-version': ASSET_FLOW, 'stagelink-clock': MONITOR_FLOW };

interface Choice {
  uid: string;
  name: string;
}

/** The first paragraph of a node's help as the package ships it, in plain text. */
function helpIntro(type: string): string {
  const html = readFileSync(join(NODE_RED_PACKAGE, 'dist', 'nodes', 'locales', 'en-US', `${type}.html`), 'utf8');
  const intro = (/<p>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '').replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim();
  if (intro === '') throw new Error(`The help of ${type} has no opening paragraph.`);
  return intro;
}

describe('the Node-RED editor', () => {
  let demo: NodeRedDemo;
  let browser: Browser;
  let editor: NodeRedEditor;
  let client: MediaServer;

  beforeAll(async () => {
    browser = await launchChromium();
    demo = await startNodeRedDemo();
    client = new MediaServer({ host: demo.sim.mediaServer.url });
    editor = await NodeRedEditor.open(browser, demo.red.url);
  });

  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await demo?.close();
  });

  afterEach(async () => {
    await editor.cancelAllTrays();
    expect(editor.pageErrors, `script errors in the editor; Node-RED log:\n${demo.log().slice(-4000)}`).toEqual([]);
  });

  /** The first node of a type (and name) on the flow shown. */
  /** The node of that type on the flow shown, or (for a node no example flow of `pnpm start` holds) a new one on a flow of its own. */
  async function exampleOrNewNode(type: string): Promise<string> {
    const [id] = await editor.nodesOnFlow(type);
    if (id) return id;
    await editor.addFlow();
    return editor.dropFromPalette(type, 300, 120);
  }

  async function exampleNode(type: string, name?: string): Promise<string> {
    const [id] = await editor.nodesOnFlow(type, name);
    if (!id) throw new Error(`The example flow shown has no ${type} node${name === undefined ? '' : ` named "${name}"`}.`);
    return id;
  }

  it('lists every stagelink node in its palette category', async () => {
    expect(await editor.paletteTypes('stagelink')).toEqual(NODE_TYPES.filter((type) => !CONFIG_TYPES.includes(type)));
  });

  it('builds a transport cue from the simulator\'s dropdowns, deploys it and cues the simulator', async () => {
    const { transports, multitransports } = await client.transport.transports();
    const tracks = await client.transport.tracks();
    const main = transports.find((transport) => transport.name === 'main');
    const target = tracks.find((track) => track.name !== main?.currentTrack.name);
    if (!main || !target) throw new Error(`The simulator's demo show lacks a "main" transport or a second track: ${JSON.stringify(tracks)}`);

    await editor.addFlow();
    const inject = await editor.dropFromPalette('inject', 160, 120);
    const transport = await editor.dropFromPalette('stagelink-transport', 440, 120);
    await editor.wire(inject, transport);

    await editor.editNode(transport, '#node-input-command');
    await editor.page.locator('#node-input-server').selectOption({ label: SERVER_NAME });
    await editor.page.locator('#node-input-command').selectOption('gototrack');

    const transportPicker = await editor.openPicker<Choice>('#stagelink-pick-transport');
    expect(transportPicker.entries.map((entry) => entry.item.name)).toEqual([...transports, ...multitransports].map((t) => t.name));
    await transportPicker.select.selectOption(pickerValue(transportPicker.entries, 'main'));

    const trackPicker = await editor.openPicker<Choice>('#stagelink-pick-track');
    expect(trackPicker.entries.map((entry) => entry.item.name)).toEqual(tracks.map((track) => track.name));
    await trackPicker.select.selectOption(pickerValue(trackPicker.entries, target.name));
    await editor.page.locator('.stagelink-row-playmode input.red-ui-typedInput-input').fill('play');
    await saveScreenshot(editor.topTray(), 'node-red-transport-dialog');

    await editor.confirmTray();
    await editor.deploy();
    // From the deploy on, before any cue: where its server stands (the director it follows).
    await until('the server state under the transport node', async () => {
      const current = await editor.status(transport);
      return current.fill === 'green' && current.text.startsWith('director ') ? current : undefined;
    });
    await editor.pressInject(inject);

    const status = await until('the cue under the transport node', async () => {
      const current = await editor.status(transport);
      return current.fill === 'green' && !current.text.startsWith('director ') ? current : undefined;
    });
    expect(status.text).toBe(`gototrack main → ${target.name}`);
    await until('the simulator to play the chosen track on "main"', async () => {
      const now = (await client.transport.transports()).transports.find((t) => t.name === 'main');
      return now?.currentTrack.name === target.name && now.playmode === 'Play';
    });
    await saveScreenshot(editor.page, 'node-red-transport-cued');
  });

  it('shows a server\'s error text literally and never runs it as markup', async () => {
    const markup = '<img src=x onerror="window.__stagelinkInjected = true">';
    const hostile = await startHostileServer(markup);
    try {
      await editor.addFlow();
      const transport = await editor.dropFromPalette('stagelink-transport', 440, 120);
      await editor.editNode(transport, '#node-input-command');
      await editor.editConfigNode('#node-input-btn-server-add', '#node-config-input-host');
      await editor.page.locator('#node-config-input-host').fill(hostile.url);
      await editor.confirmTray();

      await editor.page.locator('#stagelink-pick-transport').click();
      const notice = editor.page.locator('.red-ui-notification', { hasText: 'could not load the list' });
      await notice.waitFor();
      expect(await notice.textContent()).toContain(markup);
      expect(await notice.locator('img').count()).toBe(0);
      expect(await editor.page.evaluate(() => (window as { __stagelinkInjected?: boolean }).__stagelinkInjected)).toBeUndefined();
      await saveScreenshot(editor.page, 'node-red-escaped-error');
      await editor.cancelTray();
    } finally {
      await hostile.close();
    }
  });

  it('says why a list could not be loaded in the editor\'s language, German here, whatever the runtime speaks', async () => {
    const german = await NodeRedEditor.open(browser, demo.red.url, { locale: 'de' });
    try {
      await german.addFlow();
      const transport = await german.dropFromPalette('stagelink-transport', 440, 120);
      await german.editNode(transport, '#node-input-command');
      await german.editConfigNode('#node-input-btn-server-add', '#node-config-input-host');
      await german.page.locator('#node-config-input-host').fill(NOWHERE);
      await german.confirmTray();

      await german.page.locator('#stagelink-pick-transport').click();
      const notice = german.page.locator('.red-ui-notification', { hasText: 'die Liste konnte nicht geladen werden' });
      await notice.waitFor();
      const text = (await notice.textContent()) ?? '';
      expect(text).toMatch(/GET http:\/\/127\.0\.0\.1:9\/\S+: nicht gesendet: der Server ist nicht erreichbar \(ECONNREFUSED\)/);
      expect(text).not.toContain('Could not reach');
      await saveScreenshot(notice, 'node-red-list-failed-de');
      await german.cancelTray();
      expect(german.pageErrors).toEqual([]);
    } finally {
      await german.page.close();
    }
  });

  it('shows the drive token as a password field and never sends its value to the browser', async () => {
    const token = demo.sim.drive.token;
    await editor.showFlow(ASSET_FLOW);
    await editor.editNode(await exampleNode('stagelink-drive-version'), '#node-input-drive');
    await editor.editConfigNode('#node-input-btn-drive-edit', '#node-config-input-token');

    const tokenField = editor.page.locator('#node-config-input-token');
    expect(await tokenField.getAttribute('type')).toBe('password');
    // Node-RED's placeholder for "a token is stored": the editor knows one is set, not what it is.
    expect(await tokenField.inputValue()).toBe('__PWRD__');
    await saveScreenshot(editor.topTray(), 'node-red-dialog-stagelink-drive');
    await editor.cancelTray();
    await editor.cancelTray();

    const received = await editor.receivedText();
    expect(received.some((text) => text.includes(demo.sim.drive.url)), 'the recording holds the flows the editor loaded').toBe(true);
    const leaks = received.filter((text) => text.includes(token));
    expect(leaks, 'responses or comms frames that carried the drive token').toEqual([]);
  });

  it('opens the dialog of every stagelink node without a script error', async () => {
    for (const type of NODE_TYPES.filter((type) => !CONFIG_TYPES.includes(type))) {
      await editor.showFlow(FLOW_OF[type] ?? SHOW_FLOW);
      await editor.editNode(await exampleOrNewNode(type), '#node-input-name');
      // A dropdown's choices are worded from the node's catalog as the dialog opens: a missing entry shows its key.
      const choices = await editor.topTray().locator('option').evaluateAll((options) => options.map((option) => option.textContent ?? ''));
      expect(choices.filter((text) => /^stagelink-[\w-]+\.[\w.]+$/.test(text)), `the choices of ${type}`).toEqual([]);
      await saveScreenshot(editor.topTray(), `node-red-dialog-${type}`);
      await editor.cancelTray();
    }
    await editor.showFlow(SHOW_FLOW);
    await editor.editNode(await exampleNode('stagelink-transport'), '#node-input-server');
    await editor.editConfigNode('#node-input-btn-server-edit', '#node-config-input-host');
    expect(await editor.page.locator('#node-config-input-host').inputValue()).toBe(demo.sim.mediaServer.url);
    await editor.page.locator('#node-config-stagelink-server-test').click();
    const machines = await until('the server dialog to report what it reached', async () => {
      const result = (await editor.page.locator('#node-config-stagelink-server-result').textContent()) ?? '';
      return result.startsWith('reached') ? result : undefined;
    });
    const session = await client.status.session();
    for (const machine of session.actors) expect(machines).toContain(machine.hostname);
    const director = await until('the server dialog to name the director', async () => {
      const line = (await editor.page.locator('#node-config-stagelink-server-director').textContent()) ?? '';
      return line.includes('followed') ? line : undefined;
    });
    expect(director).toContain(session.director?.hostname ?? 'the demo session has a director');
    await saveScreenshot(editor.topTray(), 'node-red-dialog-stagelink-server');
    await editor.cancelTray();
    await editor.cancelTray();
  });

  it('finds the session\'s director with the server dialog\'s Discover button', async () => {
    const { director } = await client.status.session();
    if (!director) throw new Error('The demo session has no director.');
    const simulator = new URL(demo.sim.mediaServer.url);
    await editor.showFlow(SHOW_FLOW);
    await editor.editNode(await exampleNode('stagelink-transport'), '#node-input-server');
    await editor.editConfigNode('#node-input-btn-server-edit', '#node-config-input-host');
    const host = editor.page.locator('#node-config-input-host');
    // A machine of the session as a desk would first know it: by a bare address.
    await host.fill(`localhost:${simulator.port}`);
    await editor.page.locator('#node-config-stagelink-server-discover').click();
    const found = await until('the Discover button to find the director', async () => {
      const line = (await editor.page.locator('#node-config-stagelink-server-discovered').textContent()) ?? '';
      return line.startsWith('found') ? line : undefined;
    });
    expect(found).toContain(director.hostname);
    // A name the desk resolves becomes the host; a shipping director's own name (DIRECTOR01) does not replace the
    // address that answered.
    const typed = `localhost:${simulator.port}`;
    if (found.includes('cannot resolve')) expect(await host.inputValue()).toBe(typed);
    else expect(new URL(await host.inputValue()).port).toBe(simulator.port);
    await saveScreenshot(editor.topTray(), 'node-red-dialog-stagelink-server-discovered');
    await editor.cancelTray();
    await editor.cancelTray();
  });

  it('lists in the request node\'s pick list a command only the director\'s own description offers', async () => {
    // A shipping director (r34) of a build newer than the client's catalogue: its description offers one command more.
    const sim = await startSimulator({ dialect: 'r34', host: '127.0.0.1', port: 0, drivePort: 0 });
    const command = { method: 'POST', path: '/api/session/renderstream/layerhealth', summary: 'Health of a layer' };
    try {
      await simControl(sim.mediaServer.url, { action: 'describeCommand', path: 'renderstream/layerhealth', summary: command.summary, body: { layer: 'Ref' } });
      await editor.addFlow();
      const request = await editor.dropFromPalette('stagelink-request', 440, 120);
      await editor.editNode(request, '#node-input-endpoint');
      await editor.editConfigNode('#node-input-btn-server-add', '#node-config-input-host');
      await editor.page.locator('#node-config-input-host').fill(sim.mediaServer.url);
      await editor.confirmTray();

      const select = editor.page.locator('#node-input-endpoint');
      const describedOnly = select.locator('option.stagelink-described-only');
      await until('the director\'s own commands in the pick list', async () => (await describedOnly.count()) > 0);
      const offered = await describedOnly.evaluateAll((options) => options.map((option) => ({ value: (option as HTMLOptionElement).value, text: option.textContent ?? '', group: (option.parentElement as HTMLOptGroupElement).label })));
      expect(offered).toEqual([
        {
          value: `${command.method} ${command.path}`,
          text: `POST renderstream/layerhealth: ${command.summary} [director only]`,
          group: 'offered only by this director (API 2.0.3), sent by path',
        },
      ]);
      // Known commands first: the director's own come after every command of the catalogue.
      const values = await select.locator('option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
      expect(values.at(-1)).toBe(`${command.method} ${command.path}`);
      // A catalogue command this build lacks is named with why, and cannot be picked.
      const looks = select.locator('option[value="looks"]');
      expect(await looks.textContent()).toContain('(not offered by this director (API 2.0.3))');
      expect(await looks.evaluate((option) => (option as HTMLOptionElement).disabled)).toBe(true);

      await select.selectOption(`${command.method} ${command.path}`);
      expect(await editor.page.locator('#stagelink-endpoint-path').textContent()).toBe(`${command.method} ${command.path}`);
      await saveScreenshot(editor.topTray(), 'node-red-request-described');
      await editor.cancelTray();
    } finally {
      await sim.close();
    }
  });

  it('renders the help of every stagelink node', async () => {
    for (const type of NODE_TYPES) {
      const help = await editor.showHelp(type);
      const text = ((await help.textContent()) ?? '').replace(/\s+/g, ' ');
      expect(text, `the help of ${type}`).toContain(helpIntro(type));
      await saveScreenshot(editor.page.locator('#red-ui-sidebar'), `node-red-help-${type}`);
    }
  });

  it('shows the example flow at work (the README picture)', async () => {
    await editor.showFlow(SHOW_FLOW);
    await editor.page.locator('#red-ui-tab-info-link-button').click();
    await editor.pressInject(await exampleNode('inject', 'play main'));
    const cue = await exampleNode('stagelink-transport');
    await until('the example cue to turn green', async () => (await editor.status(cue)).fill === 'green');
    const liveFps = await exampleNode('stagelink-liveupdate-in');
    await until('live FPS on the example flow', async () => (await editor.status(liveFps)).fill === 'green');
    await editor.clearSelection();
    await editor.scrollPaletteTo('stagelink');
    await editor.scrollWorkspaceHome();
    await until('the notifications to fade', async () => (await editor.page.locator('.red-ui-notification').count()) === 0);
    await saveScreenshot(editor.page, 'editor');
  });
});

/** A device at the configured address that refuses every request with `reason` as the refusal's words. */
async function startHostileServer(reason: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: { code: 1, message: reason, details: [{ message: reason }] } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function pickerValue(entries: { value: string; item: Choice }[], name: string): string {
  const entry = entries.find((candidate) => candidate.item.name === name);
  if (!entry) throw new Error(`The dropdown does not offer "${name}": ${entries.map((candidate) => candidate.item.name).join(', ')}`);
  return entry.value;
}
