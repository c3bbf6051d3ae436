import { describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../src/http/logger.js';
import { ShowClocks } from '../../src/show-clock/show-clocks.js';
import { fakeSources, stoppedAt, TIMING } from './fake-sources.js';

const online = async (fake: ReturnType<typeof fakeSources>, name: string, uid: string) => {
  await vi.waitFor(() => expect(fake.open(name).length).toBeGreaterThan(0));
  fake.status(name, 'online');
  fake.send(name, stoppedAt(uid, name, 1));
};

describe('show clock watchers', () => {
  it('never calls a watcher again once another watcher\'s callback closed it', async () => {
    const fake = fakeSources();
    const clocks = new ShowClocks(fake.sources, TIMING, silentLogger);
    const calls: string[] = [];
    const second = { close: () => undefined };
    const first = clocks.watch({ name: 'main' }, (snapshot) => {
      calls.push(`first ${snapshot.time}`);
      if (snapshot.time === 2) second.close();
    });
    Object.assign(second, clocks.watch({ name: 'main' }, (snapshot) => calls.push(`second ${snapshot.time}`), { onStatus: (status) => calls.push(`second ${status}`) }));
    await online(fake, 'main', '1');
    fake.send('main', { 'object.player.tRender': 2 });
    fake.status('main', 'stale');
    expect(calls).toContain('first 2');
    expect(calls.slice(calls.indexOf('first 2')).filter((call) => call.startsWith('second'))).toEqual([]);
    first.close();
  });

  it('tells no problem to a watcher closed by another watcher\'s problem callback', async () => {
    const fake = fakeSources();
    const clocks = new ShowClocks(fake.sources, TIMING, silentLogger);
    const told: string[] = [];
    const later = { close: () => undefined };
    clocks.watch({ name: 'nowhere' }, () => undefined, { onError: () => later.close() });
    Object.assign(later, clocks.watch({ name: 'nowhere' }, () => undefined, { onError: () => told.push('later') }));
    await vi.waitFor(() => expect(fake.reads).toBeGreaterThan(1));
    expect(told).toEqual([]);
    clocks.close();
  });
});
