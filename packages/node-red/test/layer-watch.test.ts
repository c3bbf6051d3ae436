import type { LayersSnapshot } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import { SharedLayerWatch } from '../src/shared/layer-watch.js';

/** A client with only what the shared watch uses: core's `renderstream.watch`, counted, told by the test. */
class StubClient {
  opened = 0;
  closed = 0;
  tell: ((snapshot: LayersSnapshot) => void) | undefined;
  readonly renderstream = {
    watch: (onChange: (snapshot: LayersSnapshot) => void) => {
      this.opened += 1;
      this.tell = onChange;
      return { current: undefined, close: () => (this.closed += 1) };
    },
  };
}

const watchOf = (client: StubClient): SharedLayerWatch => new SharedLayerWatch(client as unknown as ConstructorParameters<typeof SharedLayerWatch>[0]);
const running: LayersSnapshot = { status: 'online', layers: [{ uid: '1', name: 'Unreal Stage', workload: { state: 'running' } }], readAt: 1 };

describe('SharedLayerWatch', () => {
  it('opens one watch for every node, tells each, and closes it with the last', () => {
    const client = new StubClient();
    const shared = watchOf(client);
    const first: LayersSnapshot[] = [];
    const second: LayersSnapshot[] = [];
    const stopFirst = shared.watch((snapshot) => first.push(snapshot));
    const stopSecond = shared.watch((snapshot) => second.push(snapshot));
    expect(client.opened).toBe(1);
    client.tell?.(running);
    expect(first).toEqual([running]);
    expect(second).toEqual([running]);
    stopFirst();
    stopFirst();
    expect(client.closed).toBe(0);
    expect(shared.watchers).toBe(1);
    stopSecond();
    expect(client.closed).toBe(1);
    expect(shared.watchers).toBe(0);
  });

  it('tells a node that joins the latest snapshot at once, and a throwing node never keeps it from the others', async () => {
    const client = new StubClient();
    const shared = watchOf(client);
    shared.watch(() => {
      throw new Error('a node that cannot show it');
    });
    client.tell?.(running);
    const joined: LayersSnapshot[] = [];
    shared.watch((snapshot) => joined.push(snapshot));
    await Promise.resolve();
    expect(joined).toEqual([running]);
    client.tell?.({ ...running, status: 'stale' });
    expect(joined.map((snapshot) => snapshot.status)).toEqual(['online', 'stale']);
  });

  it('closes for good with its config node: a later watch opens nothing', () => {
    const client = new StubClient();
    const shared = watchOf(client);
    shared.watch(() => undefined);
    shared.close();
    shared.close();
    expect(client.closed).toBe(1);
    shared.watch(() => undefined);
    expect(client.opened).toBe(1);
  });
});
