/**
 * The level dial as an operator uses it, through the built plugin and the fake Stream Deck app, against the
 * simulator (in the dialect STAGELINK_SIM_DIALECT names): a push mutes or blacks out and the next brings the
 * level back, turning while held makes fine steps, a tap reads the value without waiting for the poll, and a
 * fast turn never has more than one write out, whether the dial writes through the live stream or over REST.
 * How soon a touch shows its value is measured by `pnpm bench` (desk-latency), not here.
 */
import type { MediaServer } from '@stagelink/core';
import type { LogEntry, Simulator } from '@stagelink/simulator';
import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEVICE_ID, type FakeStreamDeck, type JsonObject } from '../harness/fake-stream-deck.js';
import { startDesk, type Desk } from './desk.js';
import { control } from './simulator.js';

const LEVEL = 'com.stagelink.mediaserver.level';
/** How often the plugin reads the transports on its own (ServerPool's default). */
const TRANSPORTS_POLL_MS = 2000;

/** A volume request as the simulator logged it: when it was answered and how long it took. */
interface TimedRequest {
  path: string;
  start: number;
  end: number;
}

describe('the level dial', () => {
  let deck: FakeStreamDeck;
  let sim: Simulator;
  let client: MediaServer;
  let requests: TimedRequest[];
  let desk: Desk;

  beforeEach(async () => {
    requests = [];
    const log = (entry: LogEntry): void => {
      if (entry.event !== 'request') return;
      const end = performance.now();
      requests.push({ path: String(entry.path), start: end - Number(entry.ms), end });
    };
    desk = await startDesk({ log });
    ({ deck, sim, client } = desk);
  });

  afterEach(() => desk.close());

  const transportReads = (): number => requests.filter((request) => request.path.endsWith('/transport/transports')).length;

  const levelOf = async (transport: string, property: 'volume' | 'brightness'): Promise<number | undefined> =>
    (await client.transport.transports()).transports.find((candidate) => candidate.name === transport)?.[property];

  const encoderEvent = (event: string, context: string, extra: JsonObject = {}): JsonObject => {
    const key = deck.keys.get(context);
    if (!key) throw new Error(`No dial ${context} on the deck`);
    return { event, action: key.action, context, device: DEVICE_ID, payload: { controller: 'Encoder', coordinates: key.coordinates, settings: key.settings, resources: {}, ...extra } };
  };

  /** Pressed and let go without turning. */
  const push = (context: string): void => {
    deck.dialDown(context);
    deck.send(encoderEvent('dialUp', context));
  };

  const stripShows = (context: string, expected: { value?: string; state?: string }, description: string): Promise<JsonObject> =>
    deck.waitFor(() => {
      const latest = deck.feedback(context).at(-1);
      if (!latest) return undefined;
      const state = (latest.state as JsonObject | undefined)?.value;
      const matches = (expected.value === undefined || latest.value === expected.value) && (expected.state === undefined || state === expected.state);
      return matches ? latest : undefined;
    }, description);

  /** The dial writes through the live stream once the server has sent it the live value. */
  const liveValueArrived = async (property: string): Promise<void> => {
    await expect.poll(() => sim.live.stats().subscribed.some((value) => value.property === property), { timeout: 5000 }).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
  };

  it.each([
    { does: 'mutes', property: 'volume', transport: 'lobby', level: 0.83, word: 'VOLUME', off: 'MUTED' },
    { does: 'blacks out', property: 'brightness', transport: 'main', level: 0.7, word: 'BRIGHTNESS', off: 'BLACKOUT' },
  ] as const)('$does on a push and brings the $property back on the next', async ({ property, transport, level, word, off }) => {
    const shown = `${Math.round(level * 100)}%`;
    await (property === 'volume'
      ? client.transport.setVolume({ transport: { name: transport }, volume: level })
      : client.transport.setBrightness({ transport: { name: transport }, brightness: level }));
    deck.appear({ action: LEVEL, context: 'dial', controller: 'Encoder', settings: { property, transport } });
    await stripShows('dial', { value: shown, state: word }, `the strip showing ${shown}`);

    push('dial');
    await expect.poll(() => levelOf(transport, property), { timeout: 5000 }).toBe(0);
    await stripShows('dial', { value: '0%', state: off }, `the strip showing ${off}`);

    push('dial');
    await expect.poll(() => levelOf(transport, property), { timeout: 5000 }).toBeCloseTo(level, 6);
    await stripShows('dial', { value: shown, state: word }, `the strip showing ${shown} again`);
    expect(deck.sent('showAlert', 'dial')).toEqual([]);
  });

  it('redraws the strip while the hand turns, not only once it stops', async () => {
    await client.transport.setVolume({ transport: { name: 'lobby' }, volume: 0.3 });
    deck.appear({ action: LEVEL, context: 'dial', controller: 'Encoder', settings: { property: 'volume', transport: 'lobby' } });
    await stripShows('dial', { value: '30%' }, 'the strip showing 30%');
    const before = deck.feedback('dial').length;
    // One tick every 100 ms for 4 s, each moving the level by 1 %. How many frames a second the strip draws is a
    // bench row (`pnpm bench dial-strip-rate`); here, that it follows the hand on the way.
    for (let tick = 0; tick < 40; tick++) {
      deck.dialRotate('dial', 1);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await stripShows('dial', { value: '70%' }, 'the strip showing 70% after 40 ticks');
    const onTheWay = new Set(deck.feedback('dial').slice(before).map((frame) => frame.value).filter((value) => value !== '30%' && value !== '70%'));
    expect(onTheWay.size).toBeGreaterThan(2);
  });

  it('brings the volume back on a push after the dial was away on another page', async () => {
    await client.transport.setVolume({ transport: { name: 'lobby' }, volume: 0.6 });
    const dial = { action: LEVEL, context: 'dial', controller: 'Encoder', settings: { property: 'volume', transport: 'lobby' } } as const;
    deck.appear(dial);
    await stripShows('dial', { value: '60%' }, 'the strip showing 60%');
    push('dial');
    await expect.poll(() => levelOf('lobby', 'volume'), { timeout: 5000 }).toBe(0);

    deck.disappear('dial');
    // The strip's last frames before it left may already say MUTED: the dial back on screen must say it itself,
    // from a reading of its own.
    const [framesBefore, readsBefore] = [deck.feedback('dial').length, transportReads()];
    deck.appear(dial);
    await expect.poll(transportReads, { timeout: 10_000 }).toBeGreaterThan(readsBefore);
    await deck.waitFor(
      () => deck.feedback('dial').slice(framesBefore).some((frame) => frame.value === '0%' && (frame.state as JsonObject | undefined)?.value === 'MUTED') || undefined,
      'the strip showing MUTED on coming back',
    );
    push('dial');
    await expect.poll(() => levelOf('lobby', 'volume'), { timeout: 5000 }).toBeCloseTo(0.6, 6);
    expect(deck.sent('showAlert', 'dial')).toEqual([]);
  });

  it('moves by a tenth of a step per tick while held down, and does not mute on letting go', async () => {
    await client.transport.setVolume({ transport: { name: 'lobby' }, volume: 0.5 });
    deck.appear({ action: LEVEL, context: 'dial', controller: 'Encoder', settings: { property: 'volume', transport: 'lobby', step: 0.05 } });
    await stripShows('dial', { value: '50%' }, 'the strip showing 50%');

    deck.dialDown('dial');
    deck.dialRotate('dial', 3, true);
    deck.send(encoderEvent('dialUp', 'dial'));

    await stripShows('dial', { value: '51.5%' }, 'the strip showing 51.5%');
    await expect.poll(() => levelOf('lobby', 'volume'), { timeout: 5000 }).toBeCloseTo(0.515, 6);
    // Long enough for a push's write to have landed, had the release been taken for one.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await levelOf('lobby', 'volume')).toBeCloseTo(0.515, 6);
  });

  it('reads the value from the server when the strip is touched, without waiting for the next poll', async () => {
    await client.transport.setVolume({ transport: { name: 'lobby' }, volume: 0.4 });
    deck.appear({ action: LEVEL, context: 'dial', controller: 'Encoder', settings: { property: 'volume', transport: 'lobby' } });
    await stripShows('dial', { value: '40%' }, 'the strip showing 40%');

    // A touch and the poll ask the same question, so only how soon the answer comes tells them apart. One
    // touch would be too close to call against a poll every two seconds; five in a row without waiting for
    // the poll take a few round trips, while waiting for it would take five polls.
    const levels = [0.61, 0.62, 0.63, 0.64, 0.65];
    const started = performance.now();
    for (const level of levels) {
      await client.transport.setVolume({ transport: { name: 'lobby' }, volume: level });
      deck.send(encoderEvent('touchTap', 'dial', { hold: false, tapPos: [100, 50] }));
      await stripShows('dial', { value: `${Math.round(level * 100)}%` }, `the strip showing ${level} after a touch`);
    }
    expect(performance.now() - started, 'five touches, each read at once').toBeLessThan((levels.length * TRANSPORTS_POLL_MS) / 2);
  });

  // The app sends whole ticks, a few at a time; a frame that says otherwise must still get an answer on the deck.
  it('answers a turn by an absurd tick count with the level at its end, or with an alert and no change', async () => {
    await client.transport.setVolume({ transport: { name: 'lobby' }, volume: 0.5 });
    deck.appear({ action: LEVEL, context: 'dial', controller: 'Encoder', settings: { property: 'volume', transport: 'lobby', step: 0.05 } });
    await stripShows('dial', { value: '50%' }, 'the strip showing 50%');

    const clamped = [
      { ticks: 1_000_000, level: 1, shown: '100%' },
      { ticks: -1_000_000, level: 0, shown: '0%' },
      { ticks: 1e308, level: 1, shown: '100%' },
    ];
    for (const { ticks, level, shown } of clamped) {
      deck.send(encoderEvent('dialRotate', 'dial', { ticks, pressed: false }));
      await expect.poll(() => levelOf('lobby', 'volume'), { timeout: 5000 }).toBe(level);
      await stripShows('dial', { value: shown }, `the strip showing ${shown} after ${ticks} ticks`);
    }
    expect(deck.sent('showAlert', 'dial')).toEqual([]);

    // JSON carries NaN and Infinity as null.
    const refused: (JsonObject | undefined)[] = [{ ticks: 2.5 }, { ticks: -0.5 }, { ticks: null }, { ticks: 'many' }, { ticks: [3] }, {}, undefined];
    for (const [index, extra] of refused.entries()) {
      const event = encoderEvent('dialRotate', 'dial', extra ?? {});
      if (extra === undefined) delete event.payload;
      deck.send(event);
      await deck.waitFor(() => deck.sent('showAlert', 'dial').length > index || undefined, `an alert for a turn of ${JSON.stringify(extra?.ticks ?? 'nothing')}`, 5000);
    }
    expect(await levelOf('lobby', 'volume')).toBe(1);
    expect(deck.feedback('dial').at(-1)?.value).toBe('100%');
  });

  it('sends 10 fast ticks over REST one write at a time and ends 10 steps away', async () => {
    await control(sim, { action: 'refuseUpgrades', on: true });
    await client.transport.setVolume({ transport: { name: 'lobby' }, volume: 0.3 });
    deck.appear({ action: LEVEL, context: 'dial', controller: 'Encoder', settings: { property: 'volume', transport: 'lobby', step: 0.05 } });
    await stripShows('dial', { value: '30%' }, 'the strip showing 30%');
    // Each answer takes a while, so ticks arrive while a write is out.
    await control(sim, { action: 'latency', ms: 250 });
    const from = requests.length;

    for (let tick = 0; tick < 10; tick++) {
      deck.dialRotate('dial', 1);
      await new Promise((resolve) => setTimeout(resolve, 15));
    }

    await stripShows('dial', { value: '80%' }, 'the strip showing 80%');
    await expect.poll(() => levelOf('lobby', 'volume'), { timeout: 5000 }).toBeCloseTo(0.8, 6);
    const writes = requests.slice(from).filter((request) => request.path.endsWith('/transport/volume'));
    expect(writes.length).toBeGreaterThanOrEqual(1);
    expect(writes.length).toBeLessThanOrEqual(3);
    expect(mostAtOnce(writes)).toBeLessThanOrEqual(2);
    expect(deck.sent('showAlert', 'dial')).toEqual([]);
  });

  it('sends 10 fast ticks through the live stream one write at a time and ends 10 steps away', async () => {
    await client.transport.setVolume({ transport: { name: 'lobby' }, volume: 0.3 });
    deck.appear({ action: LEVEL, context: 'dial', controller: 'Encoder', settings: { property: 'volume', transport: 'lobby', step: 0.05 } });
    await stripShows('dial', { value: '30%' }, 'the strip showing 30%');
    await liveValueArrived('object.volume');
    const landed = recordLiveWrites(sim);
    const from = requests.length;

    // A live write has no answer but its echo: while the stream is held still, every write the dial sends
    // waits in the socket, and they all land together once it moves again.
    await control(sim, { action: 'pause', on: true });
    for (let tick = 0; tick < 10; tick++) {
      deck.dialRotate('dial', 1);
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    await control(sim, { action: 'pause', on: false });

    await expect.poll(() => levelOf('lobby', 'volume'), { timeout: 5000 }).toBeCloseTo(0.8, 6);
    await stripShows('dial', { value: '80%' }, 'the strip showing 80%');
    expect(landed.batches.length).toBeGreaterThanOrEqual(1);
    expect(Math.max(...landed.batches)).toBeLessThanOrEqual(2);
    expect(landed.batches.reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(3);
    expect(requests.slice(from).filter((request) => request.path.endsWith('/transport/volume'))).toEqual([]);
    expect(deck.sent('showAlert', 'dial')).toEqual([]);
  });
});

/** The most requests that were being answered at the same moment. */
function mostAtOnce(requests: readonly TimedRequest[]): number {
  return Math.max(0, ...requests.map(({ start }) => requests.filter((other) => other.start <= start && start < other.end).length));
}

/**
 * Counts the volume writes that reach the simulator's model, grouped by the turn of the event loop they land
 * in: writes that waited in the socket together land in one group.
 */
function recordLiveWrites(sim: Simulator): { batches: number[] } {
  const transports = sim.state.transports;
  const setVolume = transports.setVolume.bind(transports);
  const batches: number[] = [];
  let open = false;
  transports.setVolume = (changes) => {
    if (!open) {
      open = true;
      batches.push(0);
      setImmediate(() => (open = false));
    }
    batches[batches.length - 1] = (batches.at(-1) ?? 0) + 1;
    setVolume(changes);
  };
  return { batches };
}
