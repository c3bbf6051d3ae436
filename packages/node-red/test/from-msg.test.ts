import { MediaServer } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import { describe, expect, it } from 'vitest';
import { savedNode } from './support/editor-defaults.js';
import { control, flowWith, helper, hostnames, nextMessage, nodeModules, smcAccount, useSimulatorAndClient } from './support/harness.js';

const nodes = nodeModules('stagelink-server', 'stagelink-transport', 'stagelink-oled-out');

/** What the node logged with node.warn, as text. */
function warningsOf(id: string): string[] {
  const node = helper.getNode(id) as unknown as { warn: { getCalls(): { thisValue: unknown; args: unknown[] }[] } } | undefined;
  if (!node) throw new Error(`No node ${id} in the flow`);
  return node.warn
    .getCalls()
    .filter((call) => call.thisValue === node)
    .map((call) => String(call.args[0]));
}

describe('settings the editor leaves to the msg', () => {
  let sim: Simulator;
  let ms: MediaServer;
  useSimulatorAndClient((started, client) => {
    sim = started;
    ms = client;
  });

  const engagedOfMain = async (): Promise<boolean | undefined> => (await ms.transport.transports()).transports.find((t) => t.name === 'main')?.engaged;

  it('sends msg.engaged from a transport node added as the editor saves it, false as well as true', async () => {
    await helper.load(nodes, flowWith(sim, savedNode('stagelink-transport', { server: 'server', command: 'engaged', transport: 'main' })));
    for (const engaged of [false, true, false]) {
      const out = nextMessage('out');
      helper.getNode('n1')?.receive({ engaged });
      expect((await out).payload).toMatchObject({ command: 'engaged' });
      expect(await engagedOfMain()).toBe(engaged);
    }
    expect(warningsOf('n1')).toEqual([]);
  });

  it('says what to set when a msg has no engaged for a node that leaves it to the msg', async () => {
    await helper.load(nodes, flowWith(sim, savedNode('stagelink-transport', { server: 'server', command: 'engaged', transport: 'main' })));
    const caught = nextMessage('caught');
    helper.getNode('n1')?.receive({ payload: 1 });
    expect((await caught).error?.message).toMatch(/No engaged choice given: set it in the node or send it as msg\.engaged/);
  });

  it('keeps a filled setting of a saved flow, and warns once that msg.engaged was ignored', async () => {
    // As flows saved before "from msg" existed have it: the editor's old default, true.
    await helper.load(nodes, flowWith(sim, savedNode('stagelink-transport', { server: 'server', command: 'engaged', transport: 'main', engaged: 'true', engagedType: 'bool' })));
    for (let i = 0; i < 3; i++) {
      const out = nextMessage('out');
      helper.getNode('n1')?.receive({ engaged: false });
      await out;
      expect(await engagedOfMain()).toBe(true);
    }
    expect(warningsOf('n1')).toEqual(['msg.engaged was ignored: this node\'s own engaged setting is used. Set engaged to "from msg" in the node to take it from the msg.']);
    // A msg that agrees with the setting lost nothing: no warning of its own.
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ engaged: true, transport: 'main' });
    await out;
    expect(warningsOf('n1')).toHaveLength(1);
  });

  it('tells to untick a ticked box, which has no "from msg" choice, when it ignores the msg property of its name', async () => {
    await helper.load(nodes, flowWith(sim, savedNode('stagelink-transport', { server: 'server', command: 'gototimecode', transport: 'main', ignoreTags: true })));
    const out = nextMessage('out');
    helper.getNode('n1')?.receive({ timecode: '00:00:10:00', ignoreTags: false });
    expect((await out).payload).toMatchObject({ command: 'gototimecode', ignoreTags: true });
    expect(warningsOf('n1')).toEqual(['msg.ignoreTags was ignored: this node\'s own ignoreTags box is ticked. Untick ignoreTags in the node to take it from the msg.']);
  });

  it('warns of no ignored msg.engaged when the setting itself is read from the msg or the environment', async () => {
    process.env.STAGELINK_TEST_ENGAGED = 'true';
    try {
      for (const [engaged, engagedType] of [['payload', 'msg'], ['STAGELINK_TEST_ENGAGED', 'env']]) {
        await helper.load(nodes, flowWith(sim, savedNode('stagelink-transport', { server: 'server', command: 'engaged', transport: 'main', engaged, engagedType })));
        const out = nextMessage('out');
        helper.getNode('n1')?.receive({ payload: true, engaged: false });
        await out;
        expect(await engagedOfMain()).toBe(true);
        expect(warningsOf('n1')).toEqual([]);
        await helper.unload();
      }
    } finally {
      delete process.env.STAGELINK_TEST_ENGAGED;
    }
  });

  it('shows msg.priority on the front screen from an OLED node added as the editor saves it, 0 when the msg has none', async () => {
    await control(sim, { action: 'login', loggedIn: true });
    const oled = savedNode('stagelink-oled-out', { server: 'server', machine: hostnames(sim).director });
    await helper.load(nodes, flowWith(sim, oled), smcAccount(sim));
    for (const [msg, priority] of [[{ payload: 'Doors open', priority: 2 }, 2], [{ payload: 'Doors closed' }, 0]] as const) {
      const out = nextMessage('out');
      helper.getNode('n1')?.receive(msg);
      expect((await out).payload).toMatchObject({ priority });
      expect(sim.state.hardware.oled.history().at(-1)).toMatchObject({ priority });
    }
    expect(warningsOf('n1')).toEqual([]);
  });
});
