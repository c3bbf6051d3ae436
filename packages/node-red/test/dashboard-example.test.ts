import { startSimulator, type Simulator } from '@stagelink/simulator';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { allNodes, collect, control, eventually, helper, hostnames, type Msg, smcsOf } from './support/harness.js';

/** The core nodes the example uses besides stagelink's. */
const fromNodeRed = createRequire(createRequire(import.meta.url).resolve('node-red'));
const coreNodes = ['function/10-switch.js', 'function/15-change.js', 'common/90-comment.js'].map((file) => fromNodeRed(`@node-red/nodes/core/${file}`) as unknown);

type FlowNode = Record<string, unknown> & { id: string; type: string };
/** Dashboard 2.0's config nodes: the page, not the flow. */
const DASHBOARD_CONFIG = ['ui-base', 'ui-page', 'ui-group', 'ui-theme'];
const EXAMPLE = JSON.parse(readFileSync(new URL('../examples/show-monitor-dashboard.json', import.meta.url), 'utf8')) as FlowNode[];
const ENV_OF_MACHINE = { DIRECTOR: 'director', ACTOR_1: 'actor1', ACTOR_2: 'actor2', UNDERSTUDY_1: 'understudy' } as const;

/**
 * The show-monitor example as a user imports it, pointed at the simulator and its machines, every dashboard widget a
 * helper of the same id: the test sees each msg the page would show.
 */
function dashboardExample(sim: Simulator): FlowNode[] {
  const machines = hostnames(sim);
  return EXAMPLE.filter((node) => !DASHBOARD_CONFIG.includes(node.type)).map((node) => {
    if (node.type === 'tab') {
      const env = (node['env'] as { name: keyof typeof ENV_OF_MACHINE; value: string }[]).map((variable) => ({ ...variable, value: machines[ENV_OF_MACHINE[variable.name]] }));
      return { ...node, env };
    }
    if (node.type === 'stagelink-server') return { ...node, host: sim.mediaServer.url, followDirector: false, ...smcsOf(sim) };
    if (node.type.startsWith('ui-')) return { id: node.id, z: node['z'], type: 'helper' };
    return node;
  });
}

/** The id of the example's widget of a type, by its title, label or name. */
function widget(type: string, title: string): string {
  const found = EXAMPLE.find((node) => node.type === type && (node['title'] ?? node['label'] ?? node['name']) === title);
  if (!found) throw new Error(`The show-monitor example has no ${type} "${title}".`);
  return found.id;
}

const GAUGES = ['Director', 'Actor 1', 'Actor 2', 'Understudy 1'];
const TILES = GAUGES;

describe('the show-monitor dashboard example', () => {
  let sim: Simulator | undefined;
  afterEach(async () => {
    await helper.unload();
    await sim?.close();
    sim = undefined;
  });

  it('greys out every gauge, tile and the transport line while the server is away, and raises one notification for the outage', { timeout: 120_000 }, async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 1 });
    const port = Number(new URL(sim.mediaServer.url).port);
    await helper.load([...allNodes(), ...coreNodes], dashboardExample(sim));
    const gauges = Object.fromEntries(GAUGES.map((title) => [title, collect(widget('ui-gauge', title))]));
    const tiles = Object.fromEntries(TILES.map((label) => [label, collect(widget('ui-text', label))]));
    const line = collect(widget('ui-text', 'main'));
    const countdown = collect(widget('ui-text', 'Countdown'));
    const chartLines = collect(widget('ui-text', 'Chart lines'));
    const notices = collect(widget('ui-notification', 'show the link'));
    const failures = collect(widget('ui-notification', 'show the failure'));
    const last = (messages: Msg[]): Msg | undefined => messages.at(-1);

    // Live first: a frame rate on every gauge, a severity on every tile, main's playmode and track on its line.
    for (const title of GAUGES) await eventually(() => expect(typeof last(gauges[title] ?? [])?.payload, title).toBe('number'), 15_000);
    for (const label of TILES) await eventually(() => expect(last(tiles[label] ?? [])?.payload, label).toMatch(/^(ok|busy|warning|error|offline)$/), 15_000);
    await eventually(() => expect(last(line)).toMatchObject({ payload: expect.stringMatching(/^\w+ · .+/) as unknown, class: 'stagelink-clock-online' }));
    // Under the chart: every machine's line, none of them stale.
    await eventually(() => expect(last(chartLines)).toMatchObject({ class: 'stagelink-live-online' }));
    expect(String(last(chartLines)?.payload).split(', ').sort()).toEqual([...GAUGES].sort());

    await sim.close();
    sim = undefined;
    for (const title of GAUGES) {
      await eventually(() => expect(last(gauges[title] ?? []), title).toEqual(expect.objectContaining({ class: 'stagelink-live-offline', ui_update: { label: `${title} · OFFLINE` } })), 20_000);
      // A state msg carries no value: the gauge keeps its needle, greyed, rather than drop to 0.
      expect(last(gauges[title] ?? [])?.payload, title).toBeUndefined();
    }
    for (const label of TILES) await eventually(() => expect(last(tiles[label] ?? []), label).toMatchObject({ payload: 'OFFLINE', class: 'stagelink-live-offline' }), 20_000);
    await eventually(() => expect(String(last(chartLines)?.payload).split(', ').sort()).toEqual(GAUGES.map((title) => `${title} (OFFLINE)`).sort()), 20_000);
    expect(last(chartLines)?.class).toBe('stagelink-live-offline');
    // Main's clock greys out as the gauges do: never in a colour a section's warning could be taken for.
    await eventually(() => expect(last(line)).toMatchObject({ payload: 'OFFLINE', class: 'stagelink-live-offline' }), 20_000);
    await eventually(() => expect(last(countdown)).toMatchObject({ payload: 'OFFLINE', class: 'stagelink-live-offline' }), 20_000);
    await eventually(() => expect(notices.map((msg) => msg.payload)).toEqual([expect.stringMatching(/does not answer/)]), 20_000);
    // Several polls of every node fail meanwhile (health every 5 s, events every 2 s): still one notification.
    await sleep(6000);
    expect(notices).toHaveLength(1);
    expect(failures).toEqual([]);

    sim = await startSimulator({ host: '127.0.0.1', port, drivePort: 0, seed: 1 });
    await eventually(() => expect(notices.map((msg) => msg.payload)).toEqual([expect.stringMatching(/does not answer/), 'The media server answers again.']), 30_000);
    for (const label of TILES) await eventually(() => expect(last(tiles[label] ?? [])?.payload, label).toMatch(/^(ok|busy|warning|error|offline)$/), 30_000);
    for (const title of GAUGES) await eventually(() => expect(typeof last(gauges[title] ?? [])?.payload, title).toBe('number'), 60_000);
    expect(failures).toEqual([]);
  });

  it('marks a health tile STALE when its polls fail while the server answers', { timeout: 60_000 }, async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 1 });
    await helper.load([...allNodes(), ...coreNodes], dashboardExample(sim));
    const tile = collect(widget('ui-text', 'Actor 1'));
    await eventually(() => expect(tile.at(-1)?.payload).toMatch(/^(ok|busy|warning|error|offline)$/), 15_000);
    await control(sim, { action: 'failNext', status: 500, count: 100_000 });
    await eventually(() => expect(tile.at(-1)).toMatchObject({ payload: 'STALE', class: 'stagelink-live-stale' }), 20_000);
    await control(sim, { action: 'reset' });
    await eventually(() => expect(tile.at(-1)?.payload).toMatch(/^(ok|busy|warning|error|offline)$/), 20_000);
  });

  it('shows a fan that stops on the director hardware tile, in words and in the error colour, and ok again', { timeout: 90_000 }, async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 1 });
    await helper.load([...allNodes(), ...coreNodes], dashboardExample(sim));
    const tile = collect(widget('ui-text', 'Director hardware'));
    await eventually(() => expect(tile.at(-1)).toMatchObject({ payload: 'ok', class: 'stagelink-severity-ok' }), 15_000);

    await control(sim, { action: 'hardwareFault', hostname: hostnames(sim).director, fault: 'fan', on: true });
    // Read every 15 s, as the documents would have it: the fault shows at the next read.
    await eventually(() => expect(tile.at(-1)).toMatchObject({ payload: 'error · Fan 2 has stopped (0 RPM)', class: 'stagelink-severity-error' }), 40_000);

    await control(sim, { action: 'hardwareFault', hostname: hostnames(sim).director, fault: 'fan', on: false });
    await eventually(() => expect(tile.at(-1)).toMatchObject({ payload: 'ok', class: 'stagelink-severity-ok' }), 40_000);
  });
});
