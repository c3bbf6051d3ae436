import type { Simulator } from '@stagelink/simulator';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allNodes, eventually, helper, type Msg, nextMessage, simState, useSimulator } from './support/harness.js';

/** The show-control example as the first release shipped it: a flow users have saved. */
const SAVED = JSON.parse(readFileSync(new URL('fixtures/show-control-0.1.json', import.meta.url), 'utf8')) as Record<string, unknown>[];

describe('a flow saved with the first release', () => {
  let sim: Simulator;
  useSimulator((started) => (sim = started));

  /** Its stagelink nodes, pointed at the simulator, each wired to a helper named after it. */
  function savedFlow(): Record<string, unknown>[] {
    const nodes = SAVED.filter((node) => node['type'] === 'tab' || String(node['type']).startsWith('stagelink-'));
    const helpers = nodes.filter((node) => node['z']).map((node) => ({ id: `seen-${String(node['id'])}`, z: node['z'], type: 'helper' }));
    return [
      ...nodes.map((node) => {
        if (node['type'] === 'stagelink-server') return { ...node, host: sim.mediaServer.url };
        if (!node['z']) return node;
        const seen = `seen-${String(node['id'])}`;
        // Its outputs as saved: one wire list, also for liveupdate-in, which now has a second output.
        return { ...node, wires: (node['wires'] as unknown[]).map(() => [seen]) };
      }),
      ...helpers,
    ];
  }

  const nodeNamed = (type: string, index = 0): string => {
    const found = SAVED.filter((node) => node['type'] === type)[index];
    if (!found) throw new Error(`The saved flow has no ${type} #${index}.`);
    return String(found['id']);
  };

  it('loads and runs: cues, live values on the first output, reads and guarded failover', async () => {
    await helper.load(allNodes(), savedFlow());
    const cue = nodeNamed('stagelink-transport');
    const played = nextMessage(`seen-${cue}`);
    helper.getNode(cue)?.receive({ payload: Date.now() });
    expect((await played).payload).toEqual({ command: 'play', transports: [{ name: 'main' }] });

    const live = nodeNamed('stagelink-liveupdate-in');
    const values: Msg[] = [];
    helper.getNode(`seen-${live}`)?.on('input', (msg: Msg) => values.push(msg));
    await eventually(() => expect(values.some((msg) => typeof msg.payload === 'number')).toBe(true));
    expect(values.every((msg) => typeof msg.payload === 'number')).toBe(true);

    const status = nodeNamed('stagelink-status');
    const health = nextMessage(`seen-${status}`);
    helper.getNode(status)?.receive({ payload: 'now' });
    expect((await health).severity).toEqual(expect.any(String));

    const failover = nodeNamed('stagelink-failover');
    const failedOver = nextMessage(`seen-${failover}`);
    helper.getNode(failover)?.receive({ confirm: true });
    expect((await failedOver).payload).toMatchObject({ operation: 'failovermachine' });
    expect((await simState(sim)).failedOver).toHaveLength(1);
  });
});
