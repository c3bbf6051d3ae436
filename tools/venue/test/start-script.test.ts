import mqtt from 'mqtt';
import { MOSQUITTO } from '@stagelink/bridge/testing';
import { MediaServer, sessionMachines, type Transport } from '@stagelink/core';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DebugSidebar, type DebugMessage } from './support/editor-comms.js';
import { eventually } from './support/eventually.js';
import { runStartScript, type StartScript } from './support/start-script.js';

const require = createRequire(import.meta.url);
const nodesPackage = pathToFileURL(require.resolve('@stagelink/node-red/package.json'));

/**
 * `pnpm start` as a user runs it: the real start script (free ports, a temporary data dir), its editor with the
 * example flows deployed, the show-monitor dashboard's page, each inject of the show-control example pressed as the editor's button presses it
 * (`POST /inject/<id>`), its effect read from the simulator through @stagelink/core or from the debug sidebar,
 * and Ctrl-C stopping everything.
 */
interface FlowNode {
  id: string;
  type: string;
  z?: string;
  name?: string;
  wires?: string[][];
  env?: { name: string; value: string }[];
}

const example = (file: string): FlowNode[] => JSON.parse(readFileSync(new URL(`examples/${file}`, nodesPackage), 'utf8')) as FlowNode[];
const EXAMPLE = example('show-control.json');
const TAB = EXAMPLE.find((node) => node.type === 'tab');
const DASHBOARD = example('show-monitor-dashboard.json');
const DASHBOARD_TAB = DASHBOARD.find((node) => node.type === 'tab');
const INJECTS = EXAMPLE.filter((node) => node.type === 'inject');
const debugNode = (name: string): string => {
  const node = EXAMPLE.find((candidate) => candidate.type === 'debug' && candidate.name === name);
  if (!node) throw new Error(`The show-control example has no debug node "${name}".`);
  return node.id;
};

/** A failure the example's events node reported from its own poll, which no button press starts. */
const fromEventsPoll = (failure: DebugMessage): boolean =>
  failure.topic === 'connection' && (failure.value as { source?: { type?: string } } | undefined)?.source?.type === 'stagelink-events';

describe('pnpm start', () => {
  let dataDir: string;
  let script: StartScript;
  let client: MediaServer;
  let sidebar: DebugSidebar;

  // The r34 pass asks for its dialect with the flag a user types, not the environment the suite runs in.
  const dialect = process.env['STAGELINK_SIM_DIALECT'] === 'r34' ? 'r34' : 'spec';
  const env = { ...process.env };
  delete env['STAGELINK_SIM_DIALECT'];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'stagelink-start-'));
    const dialectArgs = dialect === 'r34' ? ['--dialect', 'r34'] : [];
    script = await runStartScript(['--port', '0', '--sim-port', '0', '--drive-port', '0', '--data-dir', dataDir, ...dialectArgs], undefined, env);
    client = new MediaServer({ host: script.mediaServerUrl });
    sidebar = await DebugSidebar.open(script.editorUrl);
  }, 120_000);

  afterAll(async () => {
    sidebar?.close();
    await client?.close();
    script?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const main = async (): Promise<Transport> => {
    const { transports } = await client.transport.transports();
    const transport = transports.find(({ name }) => name === 'main');
    if (!transport) throw new Error('The simulator has no "main" transport.');
    return transport;
  };
  /** The machine standing in for Actor 1, from the health every machine reports. */
  const standingInForActor1 = async (): Promise<string[]> =>
    (await client.status.health()).filter((entry) => entry.runningAsMachine.name === 'Actor 1' && entry.machine.name !== 'Actor 1').map((entry) => entry.machine.name);
  /** The values a debug node has shown since its first `seenBefore` messages, of msgs with `topic` when given. */
  const shownSince = (debug: string, seenBefore: number, topic?: string): unknown[] =>
    sidebar
      .from(debug)
      .slice(seenBefore)
      .filter((message) => topic === undefined || message.topic === topic)
      .map((message) => message.value);

  /** What each inject of the example does, checked on the simulator (or, for a read, in the debug sidebar). */
  const EFFECTS: Record<string, (seenBefore: Record<string, number>) => void | Promise<void>> = {
    'play main': async () => expect((await main()).playmode).toBe('Play'),
    'stop main': async () => expect((await main()).playmode).toBe('Stop'),
    'go to Act 1, play': async () => expect(await main()).toMatchObject({ currentTrack: { name: 'Act 1' }, playmode: 'Play' }),
    'brightness 0.8 (live)': async () => expect((await main()).brightness).toBeCloseTo(0.8, 6),
    'next track': async () => {
      const { tracks } = (await main()).setList;
      const afterAct1 = tracks[tracks.findIndex(({ name }) => name === 'Act 1') + 1];
      expect((await main()).currentTrack.name).toBe(afterAct1?.name);
    },
    'fail over Actor 1 (confirmed)': async () => expect(await standingInForActor1()).toHaveLength(1),
    'restore Actor 1 (confirmed)': async () => expect(await standingInForActor1()).toEqual([]),
    'read failover settings': async (seen) => expect(shownSince(debugNode('failover'), seen.failover ?? 0)).toContainEqual(await client.failover.settings()),
    'health now': async (seen) => {
      // The status node also polls every few seconds; a press is told apart by its inject's topic.
      const [shown] = shownSince(debugNode('health'), seen.health ?? 0, 'health now') as { machine: { name: string } }[][];
      expect(shown?.map((entry) => entry.machine.name)).toEqual((await client.status.health()).map((entry) => entry.machine.name));
    },
    'Doors open': (seen) =>
      expect(shownSince(debugNode('oled'), seen.oled ?? 0)).toContainEqual(expect.objectContaining({ title: 'Front of house', message: 'Doors open in 5 minutes' })),
    'list cameras': async (seen) => expect(shownSince(debugNode('request'), seen.request ?? 0)).toContainEqual(await client.mixedReality.cameras()),
  };

  const admin = async (path: string, init: RequestInit = {}): Promise<Response> => {
    const response = await fetch(`${script.editorUrl}${path}`, init);
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${response.status}: ${await response.text()}`);
    return response;
  };

  it(`runs the simulator in the ${dialect} dialect and says so`, () => {
    expect(script.output()).toMatch(new RegExp(`media server\\s+http://\\S+\\s+\\(simulator, ${dialect} dialect\\)`));
    if (dialect === 'r34') expect(script.output()).toMatch(/SMC\s+http:\/\/\S+\s+\(account \w+\)/);
  });

  it('publishes the session to an MQTT broker of its own when Mosquitto is installed, and says how to get it when not', async () => {
    // The bridge comes up after the editor address is printed.
    const line = await eventually(() => {
      const found = /MQTT bridge\s+(.*)/.exec(script.output());
      expect(found).not.toBeNull();
      return found?.[1] ?? '';
    });
    if (!MOSQUITTO) {
      expect(line).toMatch(/not started: install Mosquitto/);
      return;
    }
    const [, url, prefix] = /^(mqtt:\/\/\S+)\s+\(topics under (\S+)\/#/.exec(line) ?? [];
    expect(url).toBeDefined();
    const consumer = await mqtt.connectAsync(url ?? '');
    try {
      const online = new Promise<string>((resolve) => consumer.on('message', (topic, payload) => topic === `${prefix}/bridge` && resolve(payload.toString())));
      await consumer.subscribeAsync(`${prefix}/bridge`);
      expect(await online).toBe('online');
    } finally {
      await consumer.endAsync();
    }
  });

  it('serves the editor with the show-control example deployed', async () => {
    expect((await admin('/')).headers.get('content-type')).toMatch(/text\/html/);
    const deployed = (await (await admin('/flows', { headers: { accept: 'application/json' } })).json()) as FlowNode[];
    const deployedIds = new Set(deployed.map((node) => node.id));
    expect(EXAMPLE.filter((node) => !deployedIds.has(node.id)).map((node) => `${node.type} ${node.name ?? node.id}`)).toEqual([]);
    expect(deployed.find((node) => node.id === TAB?.id)).toMatchObject({ type: 'tab', label: 'stagelink: show control' });
  });

  it('serves the show-monitor dashboard, deployed with the hostnames of the simulator\'s machines', async () => {
    expect(script.dashboardUrl).toBe(`${script.editorUrl}/dashboard/show-monitor`);
    const page = await fetch(script.dashboardUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toMatch(/<title>[^<]*Dashboard[^<]*<\/title>/);

    const deployed = (await (await admin('/flows', { headers: { accept: 'application/json' } })).json()) as FlowNode[];
    const deployedIds = new Set(deployed.map((node) => node.id));
    expect(DASHBOARD.filter((node) => !deployedIds.has(node.id)).map((node) => `${node.type} ${node.name ?? node.id}`)).toEqual([]);
    const tab = deployed.find((node) => node.id === DASHBOARD_TAB?.id);
    const hostnames = sessionMachines(await client.status.session()).map(({ machine }) => machine.hostname);
    expect(tab?.env?.map((variable) => variable.value).sort()).toEqual(hostnames.sort());
    // The r34 simulator names its machines differently: the example's own hostnames are the documents' words.
    if (dialect === 'r34') expect(tab?.env).not.toEqual(DASHBOARD_TAB?.env);
  });

  it('changes the simulator from every inject button of the show-control example', async () => {
    expect(INJECTS.map((inject) => inject.name).sort()).toEqual(Object.keys(EFFECTS).sort());
    // The health debug node starts switched off in the example; the sidebar's toggle switches it on.
    await admin(`/debug/${debugNode('health')}/enable`, { method: 'POST' });
    for (const inject of INJECTS) {
      const name = inject.name ?? inject.id;
      const seen = Object.fromEntries(['failover', 'health', 'oled', 'request'].map((debug) => [debug, sidebar.from(debugNode(debug)).length]));
      await admin(`/inject/${inject.id}`, { method: 'POST' });
      await eventually(() => EFFECTS[name]?.(seen), 10_000).catch((error: unknown) => {
        throw new Error(`Pressing "${name}": ${error instanceof Error ? error.message : String(error)}\n--- output ---\n${script.output().slice(-3000)}`);
      });
    }
    // The events node's polls run on their own clock: one late answer on a loaded machine is an outage it reports,
    // not a button that failed.
    expect(sidebar.from(debugNode('failures')).filter((failure) => !fromEventsPoll(failure))).toEqual([]);
  }, 120_000);

  it('stops Node-RED and the simulator on Ctrl-C and leaves no process behind', async () => {
    script.child.kill('SIGINT');
    expect(await script.exited).toEqual({ code: 0, signal: null });
    expect(script.groupAlive()).toBe(false);
    await expect(fetch(script.editorUrl)).rejects.toThrow();
    await expect(fetch(`${script.mediaServerUrl}/api/v1/status/health`)).rejects.toThrow();
  }, 30_000);

  it('leaves the show log the bridge recorded and prints the command that draws it, which works', () => {
    const showLog = join(dataDir, 'show-log');
    if (!MOSQUITTO) {
      expect(script.output()).toMatch(/MQTT bridge\s+not started, and no show log/);
      expect(existsSync(showLog)).toBe(false);
      return;
    }
    expect(readdirSync(showLog).filter((file) => /^show-\d{4}-\d{2}-\d{2}\.ndjson$/.test(file))).toHaveLength(1);
    const [, command] = /draw it as a page \(from the repository root\):\n\s+(node .+)/.exec(script.output()) ?? [];
    expect(command).toContain(`${showLog} -o ${join(dataDir, 'report.html')}`);
    const [, cli, ...args] = (command ?? '').split(' ');
    const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
    execFileSync(process.execPath, [cli ?? '', ...args], { cwd: repoRoot, stdio: 'ignore' });
    expect(readFileSync(join(dataDir, 'report.html'), 'utf8')).toContain('stagelink-report-data');
  });
});
