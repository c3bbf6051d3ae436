/**
 * What venues report, through the built plugin and the fake Stream Deck app, against the simulator's faults (in
 * each dialect of the run, r34 included): an FPS key whose values stop while the link stays up says STALE and
 * comes back by itself; a list whose answer stops after its headers (an MTU mismatch) says MTU? while cues still
 * fire; a cue answered late says whether it landed. Core's default timings decide staleness:
 * bounds are generous.
 */
import type { LogEntry } from '@stagelink/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDesk, type Desk } from './desk.js';
import { control } from './simulator.js';

const TRANSPORT = 'com.stagelink.mediaserver.transport';
const FPS = 'com.stagelink.mediaserver.fps';
const HEALTH = 'com.stagelink.mediaserver.health';

/** The local FPS monitor's object expression, as core's `localFps` preset subscribes to it. */
const LOCAL_FPS = 'findLocalMonitor("fps")';
const liveFps = (svg: string): boolean => /\d FPS</.test(svg);

describe('the plugin under the faults venues report', () => {
  let desk: Desk;
  let requests: LogEntry[];

  beforeEach(async () => {
    requests = [];
    desk = await startDesk({ log: (entry) => entry.event === 'request' && requests.push(entry) });
  });

  /** Resolves once the plugin has read the transport list again (its poll, every 2 s). */
  async function nextTransportsRead(): Promise<void> {
    const reads = (): number => requests.filter((entry) => entry.method === 'GET' && String(entry.path).endsWith('/transport/transports')).length;
    const before = reads();
    await expect.poll(reads, { timeout: 10_000 }).toBeGreaterThan(before);
  }

  afterEach(() => desk.close());

  it('shows STALE on an FPS key whose values stop while the link stays up, and the FPS again once they come back', async () => {
    const { deck, sim } = desk;
    deck.appear({ action: FPS, context: 'fps', settings: { target: 60 } });
    deck.appear({ action: HEALTH, context: 'health', settings: {}, column: 1 });
    await deck.waitForLatestImage('fps', liveFps, 'a live FPS value', 15_000);

    await control(sim, { action: 'silentLive', pattern: LOCAL_FPS, on: true });
    const stale = await deck.waitForLatestImage('fps', (svg) => svg.includes('>STALE<'), 'the stale face', 25_000);
    expect(stale).not.toMatch(/\d FPS</);
    // Only that value stopped: the link is up, so nothing says NO LINK.
    expect(stale).not.toContain('NO LINK');
    expect(deck.latestImage('health')).not.toContain('NO LINK');

    await control(sim, { action: 'silentLive', pattern: LOCAL_FPS, on: false });
    await deck.waitForLatestImage('fps', liveFps, 'a live FPS value after the values came back', 25_000);
  });

  it('says MTU?, not NO LINK, while the transport list stops after its headers, and still fires the cue', async () => {
    const { deck, sim, client } = desk;
    deck.appear({ action: TRANSPORT, context: 'play', settings: { command: 'play', transport: 'main' } });
    await deck.waitForImage('play', (svg) => svg.includes('>PLAY<'), 'the cue face');

    await control(sim, { action: 'stallBody', path: '/api/session/transport/transports', on: true });
    const face = await deck.waitForLatestImage('play', (svg) => svg.includes('>MTU?<'), 'the large-answers face', 20_000);
    expect(face).not.toContain('NO LINK');

    deck.press('play');
    await deck.waitFor((commands) => commands.find((c) => c.event === 'showOk' && c.context === 'play'), 'showOk');
    await control(sim, { action: 'stallBody', path: '/api/session/transport/transports', on: false });
    expect((await client.transport.transports()).transports.find((transport) => transport.name === 'main')?.playmode).toBe('Play');
  });

  it('says LANDED LATE for a cue whose answer came after its deadline, where the transport shows it landed', async () => {
    const { deck, sim } = desk;
    deck.appear({ action: TRANSPORT, context: 'finale', settings: { command: 'gototrack', transport: 'main', track: 'Finale', playmode: 'stop' } });
    await deck.waitForImage('finale', (svg) => svg.includes('>Finale<'), 'the cue face');
    // Commands take effect at once and answer after the plugin's 4 s deadline; reads answer on time.
    await control(sim, { action: 'slowAnswer', ms: 8000 });
    // Core tells "landed" from "unknown" by the transports as its client last read them: a read just before the
    // press is what the key's own poll gives it.
    await nextTransportsRead();

    deck.press('finale');
    await deck.waitForLatestImage('finale', (svg) => svg.includes('>LANDED<') && svg.includes('>LATE<'), 'the landed-late face', 20_000);
    expect(sim.state.transports.positionOf({ name: 'main' }).track.name).toBe('Finale');
    expect(deck.sent('showOk', 'finale')).toHaveLength(1);
    expect(deck.sent('showAlert', 'finale')).toEqual([]);
  });
});
