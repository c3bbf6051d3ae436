import { describe, expect, it } from 'vitest';
import { LayerPoll, type LayersSnapshot } from '../src/media-server/layer-watch.js';
import { silentLogger } from '../src/http/logger.js';
import type { RenderStreamLayer } from '../src/index.js';

const layer = (state: string): RenderStreamLayer => ({ uid: '1', name: 'Unreal Stage', workload: { state } });

describe('the RenderStream layers poll', () => {
  it('tells a watcher that comes after every watcher left during a read nothing from that read', async () => {
    let answer: (layers: RenderStreamLayer[]) => void = () => undefined;
    const poll = new LayerPoll(() => new Promise((resolve) => (answer = resolve)), silentLogger);
    try {
      const first = poll.watch(() => undefined, { everyMs: 60_000 });
      await new Promise((resolve) => setTimeout(resolve, 20));
      first.close();
      answer([layer('running')]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const told: LayersSnapshot[] = [];
      const later = poll.watch((snapshot) => told.push(snapshot), { everyMs: 60_000 });
      await new Promise((resolve) => setTimeout(resolve, 20));
      answer([layer('error')]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(told.map((snapshot) => snapshot.layers[0]?.workload.state)).toEqual(['error']);
      later.close();
    } finally {
      poll.close();
    }
  });
});
