/**
 * The Show clock key and strip through the built plugin and the fake Stream Deck app, against the simulator's
 * playhead, which runs in real time (in the dialect of the run, r34 included): the section's remaining time after
 * a gotosection, orange and then flashing as it runs out, STALE when the transport's values stop while it plays,
 * NO LINK when the stream drops, and the watch let go when the key leaves the screen. Core decides when a clock is
 * stale (a playhead standing still past its silence bound, 5 s): bounds are generous. How close the digits stay
 * to the director's truth is a `pnpm bench` row, not a test here.
 */
import type { JSDOM } from 'jsdom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { palette } from '../../src/render/palette.js';
import { readFace, wordsOf } from '../unit/face-reading.js';
import type { JsonObject } from '../harness/fake-stream-deck.js';
import { startDesk, type Desk } from './desk.js';
import { choose, openInspector, options, until } from './inspector-dom.js';
import { control } from './simulator.js';

const CLOCK = 'com.stagelink.mediaserver.clock';
const MAIN = { name: 'main' };
/** The live object of `main` on either dialect: the silentLive fault matches it. */
const MAIN_OBJECT = 'transportmanager:main';

/** `m:ss` or `h:mm:ss` as seconds. */
function secondsOf(digits: string): number {
  return digits.split(':').reduce((total, part) => total * 60 + Number(part), 0);
}

/** The clock a key face shows: its digits in seconds, the line under them, and its background. */
function clockOn(svg: string): { seconds: number; label: string; background: string } | undefined {
  const [digits, label] = wordsOf(svg);
  if (digits === undefined || label === undefined || !/^\d+(:\d\d)+$/.test(digits)) return undefined;
  return { seconds: secondsOf(digits), label, background: readFace(svg).background };
}

describe('the show clock key', () => {
  let desk: Desk;
  let dom: JSDOM | undefined;

  beforeEach(async () => {
    desk = await startDesk();
  });

  afterEach(async () => {
    dom?.window.close();
    dom = undefined;
    await desk.close();
  });

  /** Where the simulator's playhead of main is now, in seconds into its track. */
  const truth = (): number => desk.sim.state.transports.positionOf(MAIN).time;

  /** Waits until the key shows a live clock that `test` accepts. */
  const clockShown = (context: string, test: (clock: NonNullable<ReturnType<typeof clockOn>>) => boolean, description: string, timeoutMs?: number) =>
    desk.deck.waitForLatestImage(context, (svg) => {
      const clock = clockOn(svg);
      return clock !== undefined && test(clock);
    }, description, timeoutMs);

  it("shows what remains of the section after a gotosection, moving with the director's playhead", async () => {
    const { deck, client } = desk;
    deck.appear({ action: CLOCK, context: 'clock', settings: { transport: 'main' } });
    await clockShown('clock', ({ label }) => label === 'SECTION 0', 'the clock of section 0');

    await client.transport.gotoSection({ transport: MAIN, section: 1, playmode: 'play' });
    const first = clockOn(await clockShown('clock', ({ label }) => label === 'SECTION 1', 'the clock of section 1')) ?? { seconds: 0 };
    // The countdown shows each second until it has fully passed; a frame is at most a tick old.
    expect(first.seconds).toBeGreaterThanOrEqual(240 - truth() - 1);
    expect(first.seconds).toBeLessThanOrEqual(240 - truth() + 2);
    expect(readFace(deck.latestImage('clock') ?? '').background).toBe(palette.neutral);

    // It moves on by itself, reading core's clock, and keeps up with the simulator's playhead.
    const later = clockOn(await clockShown('clock', ({ seconds }) => seconds <= first.seconds - 2, 'the clock two seconds on')) ?? { seconds: 0 };
    expect(Math.abs(later.seconds - (240 - truth()))).toBeLessThanOrEqual(2);
  });

  it('turns orange under its threshold and flashes under the second as the section runs out', async () => {
    const { deck, client } = desk;
    deck.appear({ action: CLOCK, context: 'clock', settings: { transport: 'main', warnAt: 10, flashAt: 4 } });
    await clockShown('clock', ({ label }) => label === 'SECTION 0', 'the clock of section 0');
    await client.transport.gotoTime({ transport: MAIN, time: 228, playmode: 'play' });
    await clockShown('clock', ({ label, seconds, background }) => label === 'SECTION 1' && seconds > 10 && background === palette.neutral, 'the calm clock above 10 s');
    await clockShown('clock', ({ seconds, background }) => seconds <= 10 && seconds > 4 && background === palette.warning, 'the orange clock under 10 s', 15_000);
    // Under 4 s the key blinks: orange and dark frames follow each other.
    await deck.waitFor(() => {
      const flashing = deck.images('clock').map(clockOn).filter((clock) => clock !== undefined && clock.label === 'SECTION 1' && clock.seconds <= 4);
      const backgrounds = new Set(flashing.map((clock) => clock?.background));
      return backgrounds.has(palette.warning) && backgrounds.has(palette.neutral);
    }, 'orange and dark frames under 4 s', 15_000);
  });

  it('shows STALE, and no number, when the transport stops sending its playhead while it plays, and the clock again when it sends', async () => {
    const { deck, client, sim } = desk;
    deck.appear({ action: CLOCK, context: 'clock', settings: { transport: 'main' } });
    await client.transport.play(MAIN);
    await clockShown('clock', ({ label }) => label === 'SECTION 0', 'the running clock');

    await control(sim, { action: 'silentLive', pattern: MAIN_OBJECT, on: true });
    const stale = await deck.waitForLatestImage('clock', (svg) => svg.includes('>STALE<'), 'the stale face', 30_000);
    expect(wordsOf(stale)).toEqual(['main', 'STALE']);
    // The link is up: only this clock stopped being live.
    expect(stale).not.toContain('NO LINK');

    await control(sim, { action: 'silentLive', pattern: MAIN_OBJECT, on: false });
    await clockShown('clock', ({ label }) => label === 'SECTION 0', 'the running clock again', 30_000);
  });

  it('shows NO LINK when the live stream drops, and the clock again once it is back', async () => {
    const { deck, client, sim } = desk;
    deck.appear({ action: CLOCK, context: 'clock', settings: { transport: 'main' } });
    await client.transport.play(MAIN);
    await clockShown('clock', ({ label }) => label === 'SECTION 0', 'the running clock');

    await control(sim, { action: 'refuseUpgrades', on: true });
    await control(sim, { action: 'dropSockets' });
    const noLink = await deck.waitForLatestImage('clock', (svg) => svg.includes('>NO LINK<'), 'the no-link face', 20_000);
    expect(wordsOf(noLink)).toEqual(['main', 'NO LINK']);

    await control(sim, { action: 'refuseUpgrades', on: false });
    await clockShown('clock', ({ label }) => label === 'SECTION 0', 'the running clock again', 20_000);
  });

  it('costs the director one subscription group for two keys of a transport, and none once they leave the screen', async () => {
    const { deck, sim } = desk;
    const ofMain = (): number => sim.live.stats().subscribed.filter((value) => value.object.toLowerCase().includes(MAIN_OBJECT)).length;
    deck.appear({ action: CLOCK, context: 'section', settings: { transport: 'main' } });
    await clockShown('section', () => true, 'the first clock');
    // Every property of the clock is subscribed once the timecode status (the last of them) has come.
    await expect.poll(ofMain, { timeout: 10_000 }).toBeGreaterThanOrEqual(9);
    const one = ofMain();

    deck.appear({ action: CLOCK, context: 'track', settings: { transport: 'main', show: 'trackRemaining' }, column: 1 });
    await clockShown('track', ({ label }) => label === 'TRACK END', 'the second clock');
    expect(ofMain()).toBe(one);

    deck.disappear('section');
    deck.disappear('track');
    await expect.poll(ofMain, { timeout: 10_000 }).toBe(0);
  });

  it('shows PROBLEM, and no number, for a transport the server does not have', async () => {
    const { deck } = desk;
    deck.appear({ action: CLOCK, context: 'clock', settings: { transport: 'nope' } });
    const face = await deck.waitForLatestImage('clock', (svg) => svg.includes('>PROBLEM<'), 'the problem face');
    expect(wordsOf(face)).toEqual(['nope', 'PROBLEM']);
  });

  it("draws the section, the remaining time and a progress bar on a Stream Deck + dial's strip", async () => {
    const { deck, client } = desk;
    deck.appear({ action: CLOCK, context: 'dial', controller: 'Encoder', settings: { transport: 'main' } });
    await client.transport.gotoSection({ transport: MAIN, section: 1, playmode: 'stop' });
    const strip = await deck.waitFor(() => {
      const latest = deck.feedback('dial').at(-1);
      return (latest?.section as JsonObject | undefined)?.value === 'main \u00b7 SECTION 1' ? latest : undefined;
    }, 'the strip of section 1');
    expect(strip.remaining).toMatchObject({ value: '2:00' });
    expect(strip.progress).toMatchObject({ value: 0, opacity: 1 });
    expect(deck.sent('setImage', 'dial')).toEqual([]);
  });

  it('has a settings page that lists the transports from the live server and saves what the operator sets', async () => {
    const { deck, client } = desk;
    deck.appear({ action: CLOCK, context: 'clock', settings: {} });
    await deck.waitForLatestImage('clock', (svg) => svg.includes('>SET UP<'), 'the set-up face');
    dom = openInspector(deck, 'clock.html', 'clock');
    const page = dom;
    const { transports, multitransports } = await client.transport.transports();
    await until('the transports dropdown', () => options(page, 'transport').length > 0);
    expect(options(page, 'transport')).toEqual([...transports, ...multitransports].map((transport) => transport.name));
    expect((page.window.document.getElementById('show') as HTMLSelectElement).value).toBe('sectionRemaining');

    choose(page, 'transport', 'main');
    choose(page, 'show', 'nextCueIn');
    choose(page, 'warnAt', '30');
    await until('the threshold saved', () => deck.keys.get('clock')?.settings.warnAt !== undefined);
    expect(deck.keys.get('clock')?.settings).toEqual({ transport: 'main', show: 'nextCueIn', warnAt: 30 });
    await clockShown('clock', () => true, 'the clock the page set up');
  });
});
