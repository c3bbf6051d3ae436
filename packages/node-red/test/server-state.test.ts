import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startSimulator, type Simulator } from '@stagelink/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { savedNode } from './support/editor-defaults.js';
import { allNodes, control, eventually, helper, hostnames, nextMessage, useSimulator } from './support/harness.js';

/** The nodes that send requests through their server, each as the editor saves it when first added. */
const REQUEST_NODES = ['stagelink-transport', 'stagelink-failover', 'stagelink-oled-out', 'stagelink-request', 'stagelink-status'] as const;

interface Shown {
  fill?: string;
  shape?: string;
  text?: string;
}

/** Every status a node has shown since the flow started, read from the helper's spy on Node#status. */
function shown(id: string): Shown[] {
  const node = helper.getNode(id) as unknown as { status: { getCalls(): { thisValue: unknown; args: [Shown] }[] } } | undefined;
  if (!node) throw new Error(`No node ${id} in the flow`);
  return node.status
    .getCalls()
    .filter((call) => call.thisValue === node)
    .map((call) => call.args[0]);
}

const last = (id: string): Shown | undefined => shown(id).at(-1);

/** What the node logged with node.error, as text. */
function errorsOf(id: string): string[] {
  const node = helper.getNode(id) as unknown as { error: { getCalls(): { thisValue: unknown; args: unknown[] }[] } } | undefined;
  if (!node) throw new Error(`No node ${id} in the flow`);
  return node.error
    .getCalls()
    .filter((call) => call.thisValue === node)
    .map((call) => String(call.args[0] instanceof Error ? call.args[0].message : call.args[0]));
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A node's id in these flows: not its type, which Node-RED would read as a reference to it. */
const idOf = (type: string): string => `n-${type}`;

function flowOf(server: Record<string, unknown>): Record<string, unknown>[] {
  return [
    { id: 'tab', type: 'tab', label: 'test' },
    { id: 'server', ...savedNode('stagelink-server'), ...server },
    ...REQUEST_NODES.map((type) => ({ id: idOf(type), z: 'tab', wires: [[]], ...savedNode(type, { server: 'server' }) })),
  ];
}

describe('the server config node tells every node using it where it stands', () => {
  let sim: Simulator;
  useSimulator((started) => (sim = started));

  it('shows connected with the director followed under every node, from the deploy on', async () => {
    await helper.load(allNodes(), flowOf({ host: sim.mediaServer.url }));
    const director = hostnames(sim).director;
    for (const type of REQUEST_NODES) {
      await eventually(() => expect(last(idOf(type)), type).toEqual({ fill: 'green', shape: 'dot', text: `director ${director}` }));
      expect(shown(idOf(type))[0], `${type} starts as connecting`).toEqual({ fill: 'yellow', shape: 'ring', text: 'connecting' });
    }
  });

  it('stays connected under every node through one probe a busy director answers too late', { timeout: 60_000 }, async () => {
    await helper.load(allNodes(), flowOf({ host: sim.mediaServer.url, followDirector: false }));
    for (const type of REQUEST_NODES) await eventually(() => expect(last(idOf(type))?.text, type).toBe('connected'));
    const path = '/api/session/status/session';
    const asked = (): number => sim.arrivals.count('GET', path);
    const before = asked();
    // The next probe is answered after its deadline; the one after it, on time.
    await control(sim, { action: 'slowAnswer', ms: 8000, path });
    await eventually(() => expect(asked()).toBeGreaterThan(before), 30_000);
    await control(sim, { action: 'slowAnswer', ms: 0 });
    await eventually(() => expect(asked()).toBeGreaterThan(before + 1), 30_000);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    for (const type of REQUEST_NODES) expect(shown(idOf(type)).filter((status) => status.text === 'unreachable'), type).toEqual([]);
  });

  it('shows unreachable under every node when nothing answers at the host', async () => {
    await helper.load(allNodes(), flowOf({ host: `http://127.0.0.1:${await closedPort()}` }));
    for (const type of REQUEST_NODES) {
      await eventually(() => expect(last(idOf(type)), type).toEqual({ fill: 'red', shape: 'ring', text: 'unreachable' }));
    }
  });

  it('shows a broken server setting under every node at deploy, and the server says once in the log what is wrong', async () => {
    await helper.load(allNodes(), flowOf({ host: 'ftp://10.0.0.5' }));
    for (const type of REQUEST_NODES) {
      expect(last(idOf(type)), type).toEqual({ fill: 'red', shape: 'dot', text: 'bad server setting' });
      expect(errorsOf(idOf(type)), type).toEqual([]);
    }
    const errors = errorsOf('server');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/The stagelink-server setting cannot work: .*ftp/);
  });

  it('shows a hosts line whose address is none as a bad server setting, names it on use, and runs again once it is fixed', async () => {
    const badLine = 'ACTOR01=10.0.0.256';
    const flow = (hosts: string) => [
      ...flowOf({ host: sim.mediaServer.url, hosts }).map((node) =>
        node['id'] === idOf('stagelink-transport') ? { ...node, transport: 'main', wires: [['out']] } : node,
      ),
      { id: 'out', z: 'tab', type: 'helper' },
      { id: 'catcher', z: 'tab', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
      { id: 'caught', z: 'tab', type: 'helper' },
    ];
    const named = /The address given for ACTOR01 in hosts \("10\.0\.0\.256"\) is not an address or address:port/;
    await helper.load(allNodes(), flow(`# the actor\n${badLine}`));
    for (const type of REQUEST_NODES) expect(last(idOf(type)), type).toEqual({ fill: 'red', shape: 'dot', text: 'bad server setting' });
    expect(errorsOf('server')).toEqual([expect.stringMatching(/^The stagelink-server setting cannot work: /)]);
    expect(errorsOf('server')[0]).toMatch(named);

    // A cue through it is refused with the same words, to Catch, and Node-RED goes on.
    const caught = nextMessage('caught');
    helper.getNode(idOf('stagelink-transport'))?.receive({ payload: 1 });
    expect((await caught).error?.message).toMatch(named);

    const { host } = new URL(sim.mediaServer.url);
    await helper.setFlows(flow(`ACTOR01=${host}`), 'full');
    for (const type of REQUEST_NODES) await eventually(() => expect(last(idOf(type))?.fill, type).toBe('green'));
    const played = nextMessage('out');
    helper.getNode(idOf('stagelink-transport'))?.receive({ payload: 1 });
    await played;
  });

  it('shows a node with no server chosen at deploy, with what to do in the log', async () => {
    await helper.load(allNodes(), [
      { id: 'tab', type: 'tab', label: 'test' },
      ...REQUEST_NODES.map((type) => ({ id: idOf(type), z: 'tab', wires: [[]], ...savedNode(type) })),
    ]);
    for (const type of REQUEST_NODES) {
      expect(last(idOf(type)), type).toEqual({ fill: 'red', shape: 'dot', text: 'no server chosen' });
      expect(errorsOf(idOf(type))[0], type).toMatch(/No media server configured: open the node and choose or add a stagelink-server/);
    }
  });

  it('clears its status when it closes, so a redeployed node does not keep the old one', async () => {
    await helper.load(allNodes(), [...flowOf({ host: sim.mediaServer.url }), { id: 'out', z: 'tab', type: 'helper' }].map((node) =>
      node['id'] === idOf('stagelink-transport') ? { ...node, transport: 'main', wires: [['out']] } : node,
    ));
    const played = nextMessage('out');
    helper.getNode(idOf('stagelink-transport'))?.receive({ payload: 1 });
    await played;
    await eventually(() => expect(last(idOf('stagelink-transport'))?.text).toBe('play main'));
    // Unloading restores Node#status: what each node shows from here on is recorded on the node itself.
    const closing = REQUEST_NODES.map((type) => {
      const node = helper.getNode(idOf(type)) as unknown as { status(status: Shown): void };
      const seen: Shown[] = [];
      node.status = (status) => seen.push(status);
      return seen;
    });
    await helper.unload();
    for (const [index, seen] of closing.entries()) expect(seen.at(-1), REQUEST_NODES[index]).toEqual({});
  });
});

describe('every node of the package', () => {
  let sim: Simulator;
  useSimulator((started) => (sim = started));

  const USER_NODES = [...REQUEST_NODES, 'stagelink-drive-version', 'stagelink-liveupdate-in', 'stagelink-liveupdate-out', 'stagelink-events', 'stagelink-clock'] as const;

  it('clears its status when it closes, whatever it showed', async () => {
    await helper.load(allNodes(), [
      { id: 'tab', type: 'tab', label: 'test' },
      { id: 'server', ...savedNode('stagelink-server'), host: sim.mediaServer.url },
      { id: 'drive', ...savedNode('stagelink-drive'), baseUrl: sim.drive.url },
      ...USER_NODES.map((type) => ({ id: idOf(type), z: 'tab', wires: [[], []], ...savedNode(type, { server: 'server', drive: 'drive' }) })),
    ]);
    for (const type of USER_NODES) await eventually(() => expect(shown(idOf(type)).length, type).toBeGreaterThan(0));
    const closing = USER_NODES.map((type) => {
      const node = helper.getNode(idOf(type)) as unknown as { status(status: Shown): void };
      const seen: Shown[] = [];
      node.status = (status) => seen.push(status);
      return seen;
    });
    await helper.unload();
    for (const [index, seen] of closing.entries()) expect(seen.at(-1), USER_NODES[index]).toEqual({});
  });
});

describe('a server that goes away and comes back', () => {
  let sim: Simulator | undefined;
  afterEach(async () => {
    await helper.unload();
    await sim?.close();
    sim = undefined;
  });

  it('turns every node to unreachable and back to connected', { timeout: 90_000 }, async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0, drivePort: 0, seed: 1 });
    const port = Number(new URL(sim.mediaServer.url).port);
    await helper.load(allNodes(), [
      ...flowOf({ host: sim.mediaServer.url, followDirector: false }),
      // A live value on the same server: its socket dropping is what tells the server to look at once.
      { id: 'fps', z: 'tab', wires: [[], []], ...savedNode('stagelink-liveupdate-in', { server: 'server' }) },
    ]);
    for (const type of REQUEST_NODES) await eventually(() => expect(last(idOf(type))?.text, type).toBe('connected'));

    await sim.close();
    sim = undefined;
    for (const type of REQUEST_NODES) await eventually(() => expect(last(idOf(type)), type).toEqual({ fill: 'red', shape: 'ring', text: 'unreachable' }), 30_000);

    sim = await startSimulator({ host: '127.0.0.1', port, drivePort: 0, seed: 1 });
    for (const type of REQUEST_NODES) await eventually(() => expect(last(idOf(type)), type).toEqual({ fill: 'green', shape: 'dot', text: 'connected' }), 30_000);
  });
});

describe('live-value nodes show their server as well as their own subscription', () => {
  let sim: Simulator;
  useSimulator((started) => (sim = started));

  /** What each node watches: the editor's defaults, with the show's transport where a node needs one. */
  const LIVE_NODES = {
    'stagelink-liveupdate-in': {},
    'stagelink-liveupdate-out': { preset: 'transportBrightness', transport: 'main' },
    'stagelink-events': {},
    'stagelink-clock': { transport: 'main', transportType: 'str' },
  } as const;
  const liveTypes = Object.keys(LIVE_NODES) as (keyof typeof LIVE_NODES)[];

  function liveFlow(server: Record<string, unknown>): Record<string, unknown>[] {
    return [
      { id: 'tab', type: 'tab', label: 'test' },
      { id: 'server', ...savedNode('stagelink-server'), ...server },
      ...liveTypes.map((type) => ({ id: idOf(type), z: 'tab', wires: [[], []], ...savedNode(type, { server: 'server', ...LIVE_NODES[type] }) })),
    ];
  }

  it('shows a broken server setting from the deploy on, not what its own setup made of it', async () => {
    await helper.load(allNodes(), liveFlow({ host: 'ftp://10.0.0.5' }));
    // Past each node's own setup, which runs once the flow has started.
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const type of liveTypes) expect(last(idOf(type)), type).toEqual({ fill: 'red', shape: 'dot', text: 'bad server setting' });
  });

  it('shows no server chosen at deploy', async () => {
    await helper.load(allNodes(), [
      { id: 'tab', type: 'tab', label: 'test' },
      ...liveTypes.map((type) => ({ id: idOf(type), z: 'tab', wires: [[], []], ...savedNode(type, LIVE_NODES[type]) })),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const type of liveTypes) {
      expect(last(idOf(type)), type).toEqual({ fill: 'red', shape: 'dot', text: 'no server chosen' });
      // Said once, by the node's own start (which Catch nodes hear), not again by the status line.
      expect(errorsOf(idOf(type)), type).toHaveLength(1);
    }
  });

  it('shows connecting at deploy and unreachable when nothing answers at the host', async () => {
    await helper.load(allNodes(), liveFlow({ host: `http://127.0.0.1:${await closedPort()}` }));
    for (const type of liveTypes) {
      expect(shown(idOf(type))[0], type).toEqual({ fill: 'yellow', shape: 'ring', text: 'connecting' });
      await eventually(() => expect(shown(idOf(type)), type).toContainEqual({ fill: 'red', shape: 'ring', text: 'unreachable' }));
    }
  });

  it('keeps showing its own subscription offline while the server answers but its stream is down', { timeout: 30_000 }, async () => {
    await helper.load(allNodes(), liveFlow({ host: sim.mediaServer.url, followDirector: false }));
    const liveIn = idOf('stagelink-liveupdate-in');
    await eventually(() => expect(last(liveIn)?.fill).toBe('green'));
    await control(sim, { action: 'refuseUpgrades', on: true });
    await control(sim, { action: 'dropSockets' });
    await eventually(() => expect(last(liveIn)).toMatchObject({ fill: 'red', shape: 'ring', text: 'offline' }));
    // The server is asked when its stream drops, and answers: connected, which must not hide the stream being down.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    for (const type of ['stagelink-liveupdate-in', 'stagelink-liveupdate-out'] as const) expect(last(idOf(type)), type).toMatchObject({ fill: 'red', text: 'offline' });
    await control(sim, { action: 'refuseUpgrades', on: false });
  });
});
