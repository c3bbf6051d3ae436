import type { LayersSnapshot } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import { SharedLayers } from '../../src/state/connection/shared-layers.js';
import { StubRenderStream } from './stubs.js';

const logger = { warn: () => undefined, debug: () => undefined };
const snapshot: LayersSnapshot = { status: 'online', layers: [{ uid: '1', name: 'Unreal Stage', workload: { state: 'running' } }], readAt: 0 };

describe('the RenderStream layers a server shares with its keys', () => {
  it('opens one watch for every key, tells a key that comes later at once, and closes with the last key', () => {
    const renderstream = new StubRenderStream();
    const shared = new SharedLayers({ renderstream } as unknown as ConstructorParameters<typeof SharedLayers>[0], logger);
    const first: LayersSnapshot[] = [];
    const second: LayersSnapshot[] = [];
    const stopFirst = shared.watch((each) => first.push(each));
    renderstream.tell(snapshot);
    const stopSecond = shared.watch((each) => second.push(each));

    expect(renderstream.watches).toHaveLength(1);
    expect(first).toEqual([snapshot]);
    expect(second).toEqual([snapshot]);

    stopFirst();
    stopFirst();
    expect(shared.watching).toBe(true);
    stopSecond();
    expect(renderstream.open).toEqual([]);
    expect(shared.watching).toBe(false);
    expect(shared.current).toBeUndefined();

    // A key that comes after the pause opens a new watch and is not shown the old snapshot.
    const third: LayersSnapshot[] = [];
    shared.watch((each) => third.push(each));
    expect(renderstream.watches).toHaveLength(2);
    expect(third).toEqual([]);
  });

  it('reads again at once on a refresh, keeping one watch open', () => {
    const renderstream = new StubRenderStream();
    const shared = new SharedLayers({ renderstream } as unknown as ConstructorParameters<typeof SharedLayers>[0], logger);
    shared.watch(() => undefined);
    shared.refresh();
    expect(renderstream.watches).toHaveLength(2);
    expect(renderstream.open).toHaveLength(1);
  });

  it('closes its watch with the client and opens none after', () => {
    const renderstream = new StubRenderStream();
    const shared = new SharedLayers({ renderstream } as unknown as ConstructorParameters<typeof SharedLayers>[0], logger);
    shared.watch(() => undefined);
    shared.close();
    expect(renderstream.open).toEqual([]);
    shared.watch(() => undefined);
    shared.refresh();
    expect(renderstream.watches).toHaveLength(1);
  });
});
