import { describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../src/http/logger.js';
import { ShowClocks } from '../../src/show-clock/show-clocks.js';
import type { ShowClockSnapshot } from '../../src/show-clock/transport-clock.js';
import { fakeSources, settle, stoppedAt, TIMING } from './fake-sources.js';

const online = async (fake: ReturnType<typeof fakeSources>, name: string, uid: string) => {
  await vi.waitFor(() => expect(fake.open(name).length).toBeGreaterThan(0));
  fake.status(name, 'online');
  fake.send(name, stoppedAt(uid, name, 1));
};

describe('which clock a ref watches', () => {
  const watching = (clocks: ShowClocks, ref: { uid?: string; name?: string }) => {
    const problems: string[] = [];
    const snapshots: ShowClockSnapshot[] = [];
    const watch = clocks.watch(ref, (snapshot) => snapshots.push(snapshot), { onError: (error) => problems.push(error.message) });
    return { watch, problems, snapshots };
  };

  it('gives one clock to a transport however it is named, uid, name or both', async () => {
    const openSubscriptions = async (refs: { uid?: string; name?: string }[]) => {
      const fake = fakeSources();
      const clocks = new ShowClocks(fake.sources, TIMING, silentLogger);
      const watches = refs.map((ref) => watching(clocks, ref));
      await online(fake, 'main', '1');
      for (const { watch } of watches) await vi.waitFor(() => expect(watch.current).toMatchObject({ transport: { uid: '1', name: 'main' }, time: 1 }));
      // Watched again once its clock is running, in each form.
      const later = refs.map((ref) => watching(clocks, ref));
      await settle();
      for (const { watch } of later) expect(watch.current).toMatchObject({ transport: { uid: '1', name: 'main' }, time: 1 });
      const count = fake.subscriptions.filter((each) => !each.closed).length;
      clocks.close();
      return count;
    };
    const one = await openSubscriptions([{ uid: '1' }]);
    expect(await openSubscriptions([{ uid: '1' }, { name: 'main' }, { uid: '1', name: 'main' }])).toBe(one);
    expect(await openSubscriptions([{ name: 'main' }, { uid: '1' }])).toBe(one);
  });

  it('tells a ref whose uid and name disagree why, and lets the same uid be watched alone', async () => {
    const fake = fakeSources();
    const clocks = new ShowClocks(fake.sources, TIMING, silentLogger);
    const misspelt = watching(clocks, { uid: '1', name: 'mian' });
    await vi.waitFor(() => expect(misspelt.problems).toHaveLength(1));
    expect(misspelt.problems[0]).toMatch(/uid "1" is named "main", not "mian"/);
    const right = watching(clocks, { uid: '1' });
    await online(fake, 'main', '1');
    await vi.waitFor(() => expect(right.watch.current).toMatchObject({ transport: { uid: '1', name: 'main' } }));
    expect(right.problems).toEqual([]);
    expect(misspelt.watch.current).toBeUndefined();
    clocks.close();
  });

  it('names the multitransport asked for in its snapshot, not its first member', async () => {
    const fake = fakeSources();
    const clocks = new ShowClocks(fake.sources, TIMING, silentLogger);
    const stage = watching(clocks, { name: 'stage' });
    const main = watching(clocks, { name: 'main' });
    await online(fake, 'main', '1');
    await vi.waitFor(() => expect(stage.watch.current?.time).toBe(1));
    expect(stage.watch.current?.transport).toEqual({ uid: '9', name: 'stage' });
    expect(stage.snapshots.at(-1)?.transport).toEqual({ uid: '9', name: 'stage' });
    expect(main.watch.current?.transport).toEqual({ uid: '1', name: 'main' });
    clocks.close();
  });
});
