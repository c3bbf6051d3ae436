/**
 * The module's one watch of the RenderStream layers: which layers it shows after each snapshot of core's watch, and
 * that a director without RenderStream is not asked again until it moves or comes back.
 */
import { ConnectionError, type LayersSnapshot, type MediaServer, NotOfferedError, type RenderStreamLayer, StatusError } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import { layersAfter, RenderStreamWatch } from '../src/show/renderstream-watch.js';

const layer = (name: string, state = 'running'): RenderStreamLayer => ({ uid: `uid-${name}`, name, workload: { state } });
const unreal = layer('Unreal Stage');
const notch = layer('Notch FX');
const notOffered = new NotOfferedError('GET /api/session/renderstream/layers answered 404', 404, undefined, { method: 'GET', url: 'http://director/api/session/renderstream/layers' });
const unreachable = new ConnectionError('http://director cannot be reached');

/** Core's watch as the module sees it: each snapshot handed over by the test, each open and close counted. */
function fakeServer(): { server: MediaServer; tell: (snapshot: LayersSnapshot) => void; opened: () => number; open: () => number } {
  let listener: ((snapshot: LayersSnapshot) => void) | undefined;
  let opened = 0;
  let open = 0;
  const renderstream = {
    watch: (onChange: (snapshot: LayersSnapshot) => void) => {
      listener = onChange;
      opened += 1;
      open += 1;
      let closed = false;
      return {
        current: undefined,
        close: () => {
          if (closed) return;
          closed = true;
          open -= 1;
        },
      };
    },
  };
  return { server: { renderstream } as unknown as MediaServer, tell: (snapshot) => listener?.(snapshot), opened: () => opened, open: () => open };
}

describe('layersAfter', () => {
  it('takes the layers of a read that was answered, and of a stale one (the layers last read)', () => {
    expect(layersAfter([unreal], { status: 'online', layers: [notch], readAt: 1 })).toEqual({ layers: [notch], offered: true });
    const problem = { message: 'refused', error: new StatusError('refused', 1000, []) };
    expect(layersAfter([unreal], { status: 'stale', layers: [unreal], readAt: 1, problem })).toEqual({ layers: [unreal], offered: true });
  });

  it('keeps the known layers while the director cannot be reached: only an answer tells which left', () => {
    expect(layersAfter([unreal, notch], { status: 'offline', layers: [], problem: { message: 'down', error: unreachable } })).toEqual({ layers: [unreal, notch], offered: undefined });
  });

  it('shows no layers once the director says it offers no RenderStream', () => {
    expect(layersAfter([unreal], { status: 'offline', layers: [], problem: { message: '404', error: notOffered } })).toEqual({ layers: [], offered: false });
  });
});

describe('RenderStreamWatch', () => {
  it('gives each layer an id once, tells when layers come or go, and forgets a layer that left', () => {
    const { server, tell } = fakeServer();
    const changes: boolean[] = [];
    const watch = new RenderStreamWatch(server, { warn: () => undefined }, (structure) => changes.push(structure));
    watch.start();

    tell({ status: 'online', layers: [unreal, notch], readAt: 1 });
    tell({ status: 'online', layers: [layer('Unreal Stage', 'error'), notch], readAt: 2 });
    tell({ status: 'online', layers: [notch], readAt: 3 });

    expect(changes).toEqual([true, false, true]);
    expect(watch.layers).toEqual([{ id: 'notch_fx', layer: notch }]);
    expect(watch.layerNamed('unreal stage')).toBeUndefined();
    expect(watch.layerNamed('NOTCH FX')?.layer).toEqual(notch);
    expect(watch.layerNamed('uid-Notch FX')?.layer).toEqual(notch);
    watch.close();
  });

  it('stops watching a director without RenderStream, and watches again when asked to look again', () => {
    const fake = fakeServer();
    const watch = new RenderStreamWatch(fake.server, { warn: () => undefined }, () => undefined);
    watch.start();
    watch.recheck();
    expect(fake.opened()).toBe(1);

    fake.tell({ status: 'offline', layers: [], problem: { message: '404', error: notOffered } });

    expect(watch.offered).toBe(false);
    expect(fake.open()).toBe(0);
    watch.recheck();
    expect(fake.opened()).toBe(2);
    expect(fake.open()).toBe(1);
    watch.close();
    expect(fake.open()).toBe(0);
    watch.recheck();
    expect(fake.opened()).toBe(2);
  });
});
