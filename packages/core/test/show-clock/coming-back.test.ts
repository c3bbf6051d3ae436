import { describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../src/http/logger.js';
import { ShowClocks } from '../../src/show-clock/show-clocks.js';
import type { ShowClockSnapshot } from '../../src/show-clock/transport-clock.js';
import { fakeSources, stoppedAt, TIMING } from './fake-sources.js';

/** A clock of `main` online on its first track, stopped at 1 s, and every snapshot it gave. */
async function onlineClock() {
  const fake = fakeSources();
  const clocks = new ShowClocks(fake.sources, TIMING, silentLogger);
  const snapshots: ShowClockSnapshot[] = [];
  const watch = clocks.watch({ name: 'main' }, (snapshot) => snapshots.push(snapshot));
  await vi.waitFor(() => expect(fake.open('main').length).toBeGreaterThan(0));
  fake.status('main', 'online');
  fake.send('main', stoppedAt('1', 'main', 1));
  expect(watch.current).toMatchObject({ status: 'online', track: { uid: '1-track' } });
  return { fake, clocks, watch, snapshots };
}

describe('a show clock coming back after the stream dropped', () => {
  it('is online only once the track, the playmode, the playhead and the play state have all come again', async () => {
    const { fake, clocks, watch, snapshots } = await onlineClock();
    fake.status('main', 'offline');
    fake.status('main', 'online');
    const seen = snapshots.length;
    // The director answers the renewed subscriptions one at a time: the operator has gone to another track, looping.
    const now = { 'object.player.tRender': 7, 'object.player.playing': true, 'object.player.playMode.state': 2, 'str(object.player.track.uid)': 'other', 'str(object.player.track.description)': 'Other' };
    for (const [property, value] of Object.entries(now)) {
      expect(watch.current?.status).not.toBe('online');
      fake.send('main', { [property]: value });
    }
    expect(watch.current).toMatchObject({ status: 'online', playmode: 'Loop', playing: true, track: { uid: 'other', name: 'Other' } });
    const online = snapshots.slice(seen).filter((snapshot) => snapshot.status === 'online');
    expect(online.map((snapshot) => [snapshot.track.uid, snapshot.track.name, snapshot.playmode])).toEqual([['other', 'Other', 'Loop']]);
    clocks.close();
  });

  it('hides the timecode status heard before the drop until it comes again', async () => {
    const { fake, clocks, watch } = await onlineClock();
    fake.send('main', { 'str(object.tcStatusString)': 'Receiving' });
    expect(watch.current?.timecode).toEqual({ status: 'Receiving' });
    fake.status('main', 'offline');
    fake.status('main', 'online');
    fake.send('main', stoppedAt('1', 'main', 1));
    expect(watch.current).toMatchObject({ status: 'online' });
    expect(watch.current?.timecode).toBeUndefined();
    fake.send('main', { 'str(object.tcStatusString)': 'None' });
    expect(watch.current?.timecode).toEqual({ status: 'None' });
    clocks.close();
  });
});

describe('a property that does not place the show', () => {
  it('holds no clock stale when it never answers', async () => {
    const { fake, clocks, watch } = await onlineClock();
    for (const property of ['str(object.tcStatusString)', 'object.volume', 'object.brightness', 'object.engaged']) {
      fake.silent('main', property);
      expect(watch.current?.status).toBe('online');
    }
    fake.silent('main', 'object.player.tRender');
    expect(watch.current?.status).toBe('stale');
    clocks.close();
  });
});
