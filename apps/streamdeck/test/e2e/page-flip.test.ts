/**
 * A late cue and a page flip, through the built plugin and the fake Stream Deck app, against the simulator: the
 * operator presses a key whose cue answers after its deadline and flips to another page; what the cue did (LANDED
 * LATE or OUTCOME UNKNOWN) is kept for the key, and shown when its page comes back within the outcome's 10 s, also
 * when the answer lands while the key is away or just after it came back.
 */
import type { LogEntry } from '@stagelink/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDesk, type Desk } from './desk.js';
import { control } from './simulator.js';

const TRANSPORT = 'com.stagelink.mediaserver.transport';
const FINALE = { command: 'gototrack', transport: 'main', track: 'Finale', playmode: 'stop' };
const outcomeFace = (svg: string): boolean => (svg.includes('>LANDED<') && svg.includes('>LATE<')) || (svg.includes('>OUTCOME<') && svg.includes('>UNKNOWN<'));

describe('a page flip while a cue is late', () => {
  let desk: Desk;
  let requests: LogEntry[];

  beforeEach(async () => {
    requests = [];
    desk = await startDesk({ log: (entry) => entry.event === 'request' && requests.push(entry) });
  });

  afterEach(() => desk.close());

  /** The key is on screen and has read the transports, then every command answers after the plugin's 4 s deadline. */
  async function pressLateCue(): Promise<void> {
    const { deck, sim } = desk;
    deck.appear({ action: TRANSPORT, context: 'finale', settings: FINALE });
    await deck.waitForImage('finale', (svg) => svg.includes('>Finale<'), 'the cue face');
    await expect.poll(() => requests.some((entry) => String(entry.path).endsWith('/transport/transports')), { timeout: 10_000 }).toBe(true);
    await control(sim, { action: 'slowAnswer', ms: 8000 });
    deck.press('finale');
    await deck.waitForImage('finale', (svg) => svg.includes('SENDING'), 'the sending face');
  }

  it('shows the outcome that landed while the key was on another page when the page comes back', async () => {
    const { deck, sim } = desk;
    await pressLateCue();
    deck.disappear('finale');
    // The answer is in: OK or an alert for the cue, though its key is away.
    await deck.waitFor(() => deck.sent('showOk', 'finale').length + deck.sent('showAlert', 'finale').length > 0 || undefined, 'the outcome of the cue', 20_000);
    const seen = deck.images('finale').length;

    deck.appear({ action: TRANSPORT, context: 'finale', settings: FINALE });
    await deck.waitFor(() => deck.images('finale').slice(seen).find(outcomeFace), 'the outcome on the key back on screen');
    expect(sim.state.transports.positionOf({ name: 'main' }).track.name).toBe('Finale');
  });

  it('shows the outcome on the key that came back before the answer did', async () => {
    const { deck } = desk;
    await pressLateCue();
    deck.disappear('finale');
    deck.appear({ action: TRANSPORT, context: 'finale', settings: FINALE });
    await deck.waitForLatestImage('finale', outcomeFace, 'the outcome on the key back on screen', 20_000);
  });
});
