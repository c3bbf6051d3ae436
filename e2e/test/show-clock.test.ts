import { afterEach, describe, expect, it } from 'vitest';
import { MediaServer, type ClockStatus, type ShowClockSnapshot } from '@stagelink/core';
import { startSimulator, type Simulator } from '@stagelink/simulator';
import { control, eventually } from './support/simulator.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

const MAIN = { name: 'main' };

async function clockOf(dialect: 'spec' | 'r34') {
  const sim = await startSimulator({ port: 0, drivePort: 0, seed: 5, dialect });
  open.push(sim);
  const ms = new MediaServer({ host: sim.mediaServer.url, live: { reconnectBaseMs: 50, reconnectCapMs: 200 } });
  open.push(ms);
  const statuses: ClockStatus[] = [];
  const watch = ms.transport.watch(MAIN, () => undefined, { onStatus: (status) => statuses.push(status) });
  open.push({ close: async () => watch.close() });
  const now = (): ShowClockSnapshot => {
    const current = watch.current;
    if (!current) throw new Error('the clock has no snapshot yet');
    return current;
  };
  const truth = () => sim.state.transports.positionOf(MAIN);
  await eventually(() => watch.current?.status === 'online', 'the clock online');
  return { sim, ms, watch, now, truth, statuses };
}

describe.each(['spec', 'r34'] as const)('the show clock of a transport (%s dialect)', (dialect) => {
  it('keeps up with the director\'s playhead while it plays, between updates too', async () => {
    const { ms, now, truth } = await clockOf(dialect);
    await ms.transport.play(MAIN);
    await eventually(() => now().playing, 'the clock playing');
    for (let sample = 0; sample < 5; sample++) {
      await new Promise((resolve) => setTimeout(resolve, 130));
      expect(Math.abs(now().time - truth().time)).toBeLessThan(0.5);
    }
    expect(now()).toMatchObject({ transport: { name: 'main' }, status: 'online', playmode: 'Play', track: { name: 'Preshow', length: 300 } });
  });

  it('shows the section, the next one, the next cue and the remainders after a gotosection', async () => {
    const { ms, now, truth } = await clockOf(dialect);
    await ms.transport.gotoSection({ transport: MAIN, section: 1, playmode: 'play' });
    await eventually(() => now().section?.index === 1, 'the clock in section 1');
    const clock = now();
    expect(clock.section).toMatchObject({ index: 1, time: 120 });
    expect(clock.nextSection).toEqual({ index: 2, time: 240 });
    expect(clock.cue?.next).toEqual({ kind: 'note', value: 'Five minute call', time: 240 });
    expect(Math.abs((clock.section?.remaining ?? 0) - (240 - truth().time))).toBeLessThan(0.5);
    expect(Math.abs(clock.trackRemaining - (300 - truth().time))).toBeLessThan(0.5);
    expect(Math.abs((clock.cue?.nextIn ?? 0) - (240 - truth().time))).toBeLessThan(0.5);
  });

  it('stops a PlaySection at the section\'s end, and holds the time once stopped', async () => {
    const { ms, now } = await clockOf(dialect);
    await ms.transport.gotoTime({ transport: MAIN, time: 239, playmode: 'PlaySection' });
    await eventually(() => now().time >= 239, 'the clock at the jump');
    await eventually(() => !now().playing && now().playmode === 'Stop', 'the section ended', 10_000);
    expect(now().time).toBeCloseTo(240, 0);
    const held = now().time;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(now().time).toBe(held);
  });

  it('holds the time where a stop left it', async () => {
    const { ms, now } = await clockOf(dialect);
    await ms.transport.play(MAIN);
    await eventually(() => now().playing, 'the clock playing');
    await ms.transport.stop(MAIN);
    await eventually(() => !now().playing, 'the clock stopped');
    const held = now().time;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(now().time).toBe(held);
  });

  it('turns offline when the stream drops, and shows no moving time meanwhile', async () => {
    const { sim, ms, now, statuses } = await clockOf(dialect);
    await ms.transport.play(MAIN);
    await eventually(() => now().playing, 'the clock playing');
    await control(sim.mediaServer.url, { action: 'refuseUpgrades', on: true });
    await control(sim.mediaServer.url, { action: 'dropSockets' });
    await eventually(() => now().status === 'offline', 'the clock offline');
    expect(statuses.at(-1)).toBe('offline');
    const held = now().time;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(now().time).toBe(held);
    await control(sim.mediaServer.url, { action: 'refuseUpgrades', on: false });
    await eventually(() => now().status === 'online', 'the clock online again');
  });

  it('costs the director one subscription group however many watch the transport', async () => {
    const { sim, ms, now } = await clockOf(dialect);
    // The timecode status is the last of the clock's properties to be subscribed.
    await eventually(() => now().timecode !== undefined, 'every property of the clock subscribed');
    const one = sim.live.stats().subscriptions;
    const more = Array.from({ length: 5 }, () => ms.transport.watch(MAIN, () => undefined));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sim.live.stats().subscriptions).toBe(one);
    for (const watch of more) watch.close();
  });
});
