import { afterEach, describe, expect, it } from 'vitest';
import { MediaServer, type ClockStatus, type MediaServerOptions, type ShowClockSnapshot } from '@stagelink/core';
import { startSimulator, type Simulator } from '@stagelink/simulator';
import { control, eventually } from './support/simulator.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

const MAIN = { name: 'main' };
/** How far the clock may be from the director's own playhead, read at the same moment: accuracy is a bench row. */
const PLAYHEAD_TOLERANCE_S = 0.5;

async function clockOf(dialect: 'spec' | 'r34', live: MediaServerOptions['live'] = {}, prepare?: (sim: Simulator) => Promise<unknown>) {
  const sim = await startSimulator({ port: 0, drivePort: 0, seed: 5, dialect });
  open.push(sim);
  await prepare?.(sim);
  const ms = new MediaServer({ host: sim.mediaServer.url, live: { reconnectBaseMs: 50, reconnectCapMs: 200, ...live } });
  open.push(ms);
  const statuses: ClockStatus[] = [];
  const snapshots: ShowClockSnapshot[] = [];
  const watch = ms.transport.watch(MAIN, (snapshot) => snapshots.push(snapshot), { onStatus: (status) => statuses.push(status) });
  open.push({ close: () => Promise.resolve(watch.close()) });
  const clock = (): ShowClockSnapshot => {
    const current = watch.current;
    if (!current) throw new Error('the clock has no snapshot yet');
    return current;
  };
  const truth = () => sim.state.transports.positionOf(MAIN);
  await eventually(() => watch.current?.status === 'online', 'the clock online');
  return { sim, ms, watch, clock, truth, statuses, snapshots };
}

describe.each(['spec', 'r34'] as const)('the show clock of a transport (%s dialect)', (dialect) => {
  it('keeps up with the director\'s playhead while it plays, between updates too', async () => {
    const { ms, clock, truth } = await clockOf(dialect);
    await ms.transport.play(MAIN);
    await eventually(() => clock().playing, 'the clock playing');
    for (let sample = 0; sample < 5; sample++) {
      await new Promise((resolve) => setTimeout(resolve, 130));
      expect(Math.abs(clock().time - truth().time)).toBeLessThan(PLAYHEAD_TOLERANCE_S);
    }
    expect(clock()).toMatchObject({ transport: { name: 'main' }, status: 'online', playmode: 'Play', track: { name: 'Preshow', length: 300 } });
  });

  it('shows the section, the next one, the next cue and the remainders after a gotosection', async () => {
    const { ms, clock, truth } = await clockOf(dialect);
    await ms.transport.gotoSection({ transport: MAIN, section: 1, playmode: 'play' });
    await eventually(() => clock().section?.index === 1, 'the clock in section 1');
    const shown = clock();
    expect(shown.section).toMatchObject({ index: 1, time: 120 });
    expect(shown.nextSection).toEqual({ index: 2, time: 240 });
    expect(shown.cue?.next).toEqual({ kind: 'note', value: 'Five minute call', time: 240 });
    expect(Math.abs((shown.section?.remaining ?? 0) - (240 - truth().time))).toBeLessThan(PLAYHEAD_TOLERANCE_S);
    expect(Math.abs(shown.trackRemaining - (300 - truth().time))).toBeLessThan(PLAYHEAD_TOLERANCE_S);
    expect(Math.abs((shown.cue?.nextIn ?? 0) - (240 - truth().time))).toBeLessThan(PLAYHEAD_TOLERANCE_S);
  });

  it('counts down a Loop to the cue it plays after the wrap, not to the next section it never reaches', async () => {
    const { ms, clock, truth } = await clockOf(dialect);
    await ms.transport.gotoTime({ transport: MAIN, time: 200, playmode: 'Loop' });
    await eventually(() => clock().playmode === 'Loop' && clock().playing && clock().time >= 200, 'the clock looping section 1');
    const shown = clock();
    // Section 1 (120 to 240) loops: Q1 at its start comes again after the wrap; the call at 240 never comes.
    expect(shown.nextSection).toEqual({ index: 1, time: 120 });
    expect(shown.cue?.next).toEqual({ kind: 'CUE', value: 'Q1', time: 120 });
    expect(Math.abs((shown.cue?.nextIn ?? 0) - (240 - truth().time))).toBeLessThan(PLAYHEAD_TOLERANCE_S);
  });

  it('stops a PlaySection at the section\'s end, and holds the time once stopped', async () => {
    const { ms, clock, truth } = await clockOf(dialect);
    await ms.transport.gotoTime({ transport: MAIN, time: 238, playmode: 'PlaySection' });
    // The playhead, play state and playmode come as separate values: until all have come, the clock still shows
    // the stopped transport it was before the goto.
    await eventually(() => clock().time >= 238 && clock().playing && clock().playmode === 'PlaySection', 'the clock playing the section');
    // The stopped playhead may follow the stop a little later and correct what the clock had run on to.
    await eventually(() => !clock().playing && clock().playmode === 'Stop' && Math.abs(clock().time - truth().time) < 0.01, 'the section ended', 10_000);
    expect(clock().time).toBeCloseTo(240, 0);
    const held = clock().time;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(clock().time).toBe(held);
  });

  it('holds the time where a stop left it', async () => {
    const { ms, clock, truth } = await clockOf(dialect);
    await ms.transport.play(MAIN);
    await eventually(() => clock().playing, 'the clock playing');
    await ms.transport.stop(MAIN);
    // The play state and the playhead come as separate values: the stopped playhead may follow the stop a little
    // later and correct what the clock had run on to. Once it has come, nothing moves the clock.
    await eventually(() => !clock().playing && Math.abs(clock().time - truth().time) < 0.01, 'the clock stopped where the director stopped');
    const held = clock().time;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(clock().time).toBe(held);
  });

  it('turns offline when the stream drops, and shows no moving time meanwhile', async () => {
    const { sim, ms, clock, statuses } = await clockOf(dialect);
    await ms.transport.play(MAIN);
    await eventually(() => clock().playing, 'the clock playing');
    await control(sim.mediaServer.url, { action: 'refuseUpgrades', on: true });
    await control(sim.mediaServer.url, { action: 'dropSockets' });
    await eventually(() => clock().status === 'offline', 'the clock offline');
    expect(statuses.at(-1)).toBe('offline');
    const held = clock().time;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(clock().time).toBe(held);
    await control(sim.mediaServer.url, { action: 'refuseUpgrades', on: false });
    await eventually(() => clock().status === 'online', 'the clock online again');
  });

  it('comes back online with what the director says after a drop, never with what it saw before', async () => {
    const { sim, ms, clock, snapshots } = await clockOf(dialect);
    await ms.transport.play(MAIN);
    await eventually(() => clock().playing, 'the clock playing');
    await control(sim.mediaServer.url, { action: 'refuseUpgrades', on: true });
    await control(sim.mediaServer.url, { action: 'dropSockets' });
    await eventually(() => clock().status === 'offline', 'the clock offline');
    // The show moves on while the clock cannot hear it.
    await ms.transport.stop(MAIN);
    const seen = snapshots.length;
    await control(sim.mediaServer.url, { action: 'refuseUpgrades', on: false });
    await eventually(() => clock().status === 'online' && !clock().playing, 'the clock online and stopped');
    const firstOnline = snapshots.slice(seen).find((snapshot) => snapshot.status === 'online');
    expect(firstOnline).toMatchObject({ playing: false });
  });

  it('comes back online only with the track and playmode the operator changed to during a drop', async () => {
    const { sim, ms, clock, snapshots } = await clockOf(dialect);
    await ms.transport.play(MAIN);
    await eventually(() => clock().playing && clock().track.name === 'Preshow', 'the clock playing Preshow');
    const before = clock().track;
    await control(sim.mediaServer.url, { action: 'refuseUpgrades', on: true });
    await control(sim.mediaServer.url, { action: 'dropSockets' });
    await eventually(() => clock().status === 'offline', 'the clock offline');
    // The operator moves to another track, looping it, while the clock cannot hear it.
    await ms.transport.gotoTrack({ transport: MAIN, track: { name: 'Intro' }, playmode: 'Loop' });
    const seen = snapshots.length;
    await control(sim.mediaServer.url, { action: 'refuseUpgrades', on: false });
    await eventually(() => clock().status === 'online' && clock().track.name === 'Intro' && clock().playmode === 'Loop', 'the clock online on Intro');
    const online = snapshots.slice(seen).filter((snapshot) => snapshot.status === 'online');
    expect(online.length).toBeGreaterThan(0);
    const old = online.filter((snapshot) => snapshot.track.uid === before.uid || snapshot.track.name === before.name || snapshot.playmode !== 'Loop');
    expect(old).toEqual([]);
  });

  it('comes back online only with the track the operator changed to while the director hung', async () => {
    // A short heartbeat: a server that answers no ping is dropped within a second, and the link tried again.
    const { sim, ms, clock, snapshots } = await clockOf(dialect, { heartbeatMs: 300 });
    await ms.transport.play(MAIN);
    await eventually(() => clock().playing && clock().track.name === 'Preshow', 'the clock playing Preshow');
    await control(sim.mediaServer.url, { action: 'pause', on: true });
    await eventually(() => clock().status === 'offline', 'the clock offline');
    await ms.transport.gotoTrack({ transport: MAIN, track: { name: 'Intro' }, playmode: 'Loop' });
    const seen = snapshots.length;
    await control(sim.mediaServer.url, { action: 'pause', on: false });
    await eventually(() => clock().status === 'online' && clock().track.name === 'Intro' && clock().playmode === 'Loop', 'the clock online on Intro');
    const online = snapshots.slice(seen).filter((snapshot) => snapshot.status === 'online');
    expect(online.filter((snapshot) => snapshot.track.name !== 'Intro' || snapshot.playmode !== 'Loop')).toEqual([]);
  });

  it('stays online while a director never answers the timecode status, which is no part of where the show is', async () => {
    // A short answer wait: a property without a value is given up on (and probed again) within half a second.
    const silentTimecode = (sim: Simulator) => control(sim.mediaServer.url, { action: 'silentLive', pattern: 'transportmanager', property: 'tcStatusString', on: true });
    const { ms, clock, statuses } = await clockOf(dialect, { answerWaitMs: 300, probeBaseMs: 300, probeCapMs: 600 }, silentTimecode);
    await ms.transport.play(MAIN);
    await eventually(() => clock().playing && clock().time > 0, 'the clock playing');
    // Several answer waits and probes of the silent property go by.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(statuses.filter((status) => status === 'stale')).toEqual([]);
    expect(clock()).toMatchObject({ status: 'online', playing: true });
    expect(clock().timecode).toBeUndefined();
  });

  it('turns stale when the playhead freezes while playing, holds there, and comes back online once it moves', async () => {
    // A short silence bound keeps the test short: the clock is stale after 1 s of a playhead standing still.
    const { sim, ms, clock, truth, statuses } = await clockOf(dialect, { silenceMinMs: 1000 });
    await ms.transport.play(MAIN);
    await eventually(() => clock().playing && clock().time > 0, 'the clock playing');
    await control(sim.mediaServer.url, { action: 'freezePlayhead', transport: 'main', on: true });
    await eventually(() => clock().status === 'stale', 'the clock stale', 10_000);
    expect(statuses.at(-1)).toBe('stale');
    expect(clock()).toMatchObject({ playing: true, playmode: 'Play' });
    const held = clock().time;
    expect(Math.abs(held - truth().time)).toBeLessThan(PLAYHEAD_TOLERANCE_S);

    // Past several silence bounds the stream is probed again and again: the clock stays stale and still.
    const seen = statuses.length;
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(statuses.slice(seen)).toEqual([]);
    expect(clock()).toMatchObject({ status: 'stale', time: held });

    await control(sim.mediaServer.url, { action: 'freezePlayhead', transport: 'main', on: false });
    await eventually(() => clock().status === 'online', 'the clock online again', 10_000);
    await eventually(() => clock().time > held + 0.2, 'the clock moving on');
    expect(Math.abs(clock().time - truth().time)).toBeLessThan(PLAYHEAD_TOLERANCE_S);
  });

  it('holds the time where a frozen playhead stuck when the transport is stopped meanwhile', async () => {
    const { sim, ms, clock, truth } = await clockOf(dialect, { silenceMinMs: 3000 });
    await ms.transport.play(MAIN);
    await eventually(() => clock().playing && clock().time > 0, 'the clock playing');
    await control(sim.mediaServer.url, { action: 'freezePlayhead', transport: 'main', on: true });
    await eventually(() => clock().status === 'stale', 'the clock stale', 10_000);
    // The silent stream is probed every 3 s and each probe sends the stuck playhead again. Stop 2 s after one:
    // a clock running on from that reading would be 2 s off, and the next probe is still a second away.
    let probedAt = 0;
    const stopWatching = sim.live.onValueSent(({ property }) => {
      if (property === 'object.player.tRender') probedAt = performance.now();
    });
    await eventually(() => probedAt > 0, 'a probe of the playhead', 10_000);
    stopWatching();
    await new Promise((resolve) => setTimeout(resolve, probedAt + 2000 - performance.now()));
    await ms.transport.stop(MAIN);
    await eventually(() => !clock().playing, 'the clock stopped');
    expect(clock().status).toBe('online');
    expect(Math.abs(clock().time - truth().time)).toBeLessThan(PLAYHEAD_TOLERANCE_S);
  }, 40_000);

  it('follows a jump made at the director, its section and time, with no command from here', async () => {
    const { sim, ms, clock, truth } = await clockOf(dialect);
    await ms.transport.play(MAIN);
    await eventually(() => clock().playing, 'the clock playing');
    await control(sim.mediaServer.url, { action: 'jumpPlayhead', transport: 'main', time: 250 });
    await eventually(() => clock().section?.index === 2, 'the clock in section 2', 10_000);
    const shown = clock();
    expect(shown).toMatchObject({ status: 'online', playing: true, track: { name: 'Preshow' }, section: { index: 2, time: 240 } });
    expect(shown.nextSection).toBeUndefined();
    expect(Math.abs(shown.time - truth().time)).toBeLessThan(PLAYHEAD_TOLERANCE_S);
    expect(Math.abs((shown.section?.remaining ?? 0) - (300 - truth().time))).toBeLessThan(PLAYHEAD_TOLERANCE_S);

    // Back into the first section of the next track: the clock reads that track's timeline.
    await control(sim.mediaServer.url, { action: 'jumpPlayhead', transport: 'main', track: 'Intro', time: 30 });
    await eventually(() => clock().track.name === 'Intro' && clock().time < 60, 'the clock in Intro', 10_000);
    await eventually(() => clock().track.length === 180, 'the timeline of Intro read', 10_000);
    expect(clock()).toMatchObject({ section: { index: 0, time: 0 }, nextSection: { index: 1, time: 60 }, cue: { next: { kind: 'CUE', value: 'Q2', time: 60 } } });
    expect(Math.abs(clock().time - truth().time)).toBeLessThan(PLAYHEAD_TOLERANCE_S);
    expect(Math.abs((clock().section?.remaining ?? 0) - (60 - truth().time))).toBeLessThan(PLAYHEAD_TOLERANCE_S);
  });

  it('reads the track\'s annotations again every few seconds, not at every probe of a quiet stream', async () => {
    // A 1 s silence bound: the clock's quiet properties (track, levels) are probed about once a second.
    const { sim, clock } = await clockOf(dialect, { silenceMinMs: 1000 });
    await eventually(() => clock().track.length > 0, 'the track\'s timeline read');
    const reads = () => sim.arrivals.count('GET', '/api/session/transport/annotations');
    const before = reads();
    await new Promise((resolve) => setTimeout(resolve, 5500));
    // The clock's own re-read comes every 5 s: one read in the window, two at the most.
    expect(reads() - before).toBeLessThanOrEqual(2);
  });

  it('says why it cannot watch a transport whose name the live stream cannot address, and watches it once renamed', async () => {
    const sim = await startSimulator({ port: 0, drivePort: 0, seed: 5, dialect });
    open.push(sim);
    await control(sim.mediaServer.url, { action: 'renameTransport', transport: 'lobby', name: 'Stage (L)' });
    const ms = new MediaServer({ host: sim.mediaServer.url });
    open.push(ms);
    const problems: string[] = [];
    const watch = ms.transport.watch({ uid: sim.state.transports.list()[2]?.uid }, () => undefined, { onError: (error) => problems.push(error.message) });
    open.push({ close: () => Promise.resolve(watch.close()) });
    await eventually(() => problems.length > 0, 'the clock to say why it cannot watch "Stage (L)"');
    expect(problems).toEqual([expect.stringContaining('"Stage (L)" cannot be watched on the live stream') as string]);
    expect(watch.current).toBeUndefined();
    // Renamed in the project: the clock reads the transports again (every 5 s) and watches it.
    await control(sim.mediaServer.url, { action: 'renameTransport', transport: 'Stage (L)', name: 'Stage L' });
    await eventually(() => watch.current?.status === 'online', 'the clock online once the transport is renamed', 20_000);
    expect(watch.current?.transport.name).toBe('Stage L');
    expect(problems).toHaveLength(1);
  }, 30_000);

  it('costs the director one subscription group however many watch the transport', async () => {
    const { sim, ms, clock } = await clockOf(dialect);
    // The timecode status is the last of the clock's properties to be subscribed.
    await eventually(() => clock().timecode !== undefined, 'every property of the clock subscribed');
    const one = sim.live.stats().subscriptions;
    const more = Array.from({ length: 5 }, () => ms.transport.watch(MAIN, () => undefined));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sim.live.stats().subscriptions).toBe(one);
    for (const watch of more) watch.close();
  });
});
