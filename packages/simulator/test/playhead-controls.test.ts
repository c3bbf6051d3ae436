import { describe, expect, it } from 'vitest';
import { StatusCode } from '../src/state/refusal.js';
import { demoState, ManualClock, refusalOf, transportNamed } from './support/demo-state.js';

const main = { name: 'main' };

/** What no API command does to a transport: a stuck render, and an operator moving it on the Designer timeline. */
describe('playhead controls', () => {
  it('a frozen playhead holds while the transport still says it plays, and runs on from there once unfrozen', () => {
    const clock = new ManualClock();
    const state = demoState({ clock });
    state.transports.command([main], 'play');
    clock.advanceSeconds(10);

    state.transports.freezePlayhead(main, true);
    clock.advanceSeconds(30);
    expect(state.transports.positionOf(main)).toMatchObject({ track: { name: 'Preshow' }, time: 10, playmode: 'play' });
    expect(transportNamed(state, 'main').playmode).toBe('play');
    expect(state.transports.active().find((transport) => transport.name === 'main')?.playmode).toBe('play');
    expect(state.transports.frozenPlayheads()).toEqual(['main']);

    state.transports.freezePlayhead(main, false);
    clock.advanceSeconds(5);
    expect(state.transports.positionOf(main)).toMatchObject({ time: 15, playmode: 'play' });
    expect(state.transports.frozenPlayheads()).toEqual([]);
  });

  it('a frozen playhead never reaches the end of its section, and a goto still moves it', () => {
    const clock = new ManualClock();
    const state = demoState({ clock });
    state.transports.command([main], 'playsection'); // Preshow section 0 ends at 120 s
    state.transports.freezePlayhead(main, true);
    clock.advanceSeconds(500);
    expect(state.transports.positionOf(main)).toMatchObject({ time: 0, playmode: 'play to end of section' });

    state.transports.jumpPlayhead(main, 200);
    clock.advanceSeconds(10);
    expect(state.transports.positionOf(main)).toMatchObject({ time: 200, playmode: 'play to end of section' });
  });

  it('freezes every transport of a multitransport', () => {
    const state = demoState();
    state.transports.freezePlayhead({ name: 'stage' }, true);
    expect(state.transports.frozenPlayheads()).toEqual(['main', 'side screens']);
  });

  it('a jump moves the playhead in the current track and keeps the playmode, playing on from there', () => {
    const clock = new ManualClock();
    const state = demoState({ clock });
    state.transports.command([main], 'play');
    clock.advanceSeconds(3);

    state.transports.jumpPlayhead(main, 123.4);
    expect(state.transports.positionOf(main)).toMatchObject({ track: { name: 'Preshow' }, time: 123.4, playmode: 'play' });
    clock.advanceSeconds(2);
    expect(state.transports.positionOf(main).time).toBeCloseTo(125.4, 6);
  });

  it('a jump into another track of the set list moves the transport to that track', () => {
    const state = demoState();
    state.transports.jumpPlayhead(main, 61, { name: 'Intro' });
    expect(state.transports.positionOf(main)).toMatchObject({ track: { name: 'Intro' }, time: 61, playmode: 'stop' });
    expect(transportNamed(state, 'main').currentTrack.name).toBe('Intro');
  });

  it('refuses a jump outside the track or to a track the set list lacks, and leaves the playhead', () => {
    const state = demoState();
    const outside = refusalOf(() => state.transports.jumpPlayhead(main, 301));
    expect(outside.code).toBe(StatusCode.outOfRange);
    expect(outside.message).toContain('outside track "Preshow"');
    expect(refusalOf(() => state.transports.jumpPlayhead(main, -1)).code).toBe(StatusCode.outOfRange);
    const elsewhere = refusalOf(() => state.transports.jumpPlayhead(main, 0, { name: 'Lyrics' }));
    expect(elsewhere.code).toBe(StatusCode.notFound);
    expect(elsewhere.message).toContain('Track "Lyrics" not found in set list "Main show"');
    expect(refusalOf(() => state.transports.freezePlayhead({ name: 'nowhere' }, true)).message).toContain('Transport "nowhere" not found');
    expect(state.transports.positionOf(main)).toMatchObject({ track: { name: 'Preshow' }, time: 0 });
  });
});
