import { describe, expect, it } from 'vitest';
import { PLAYMODES } from '../src/state/playmodes.js';
import { StatusCode } from '../src/state/refusal.js';
import { demoState, ManualClock, refusalOf, transportNamed } from './support/demo-state.js';

const main = { name: 'main' };

describe('transport playmodes', () => {
  it('play, playloopsection and playsection set the playmodes the spec names; stop stops', () => {
    const state = demoState();
    const playmode = () => transportNamed(state, 'main').playmode;

    state.transports.command([main], 'play');
    expect(playmode()).toBe('play');
    state.transports.command([main], 'playloopsection');
    expect(playmode()).toBe('loop section');
    state.transports.command([main], 'playsection');
    expect(playmode()).toBe('play to end of section');
    state.transports.command([main], 'stop');
    expect(playmode()).toBe('stop');
  });

  it('returntostart goes back to the first track of the set list and stops', () => {
    const state = demoState();
    state.transports.cue([{ transport: main, target: () => ({ trackIndex: 2, time: 50 }), playmode: 'play' }]);

    state.transports.command([main], 'returntostart');

    expect(state.transports.positionOf(main)).toMatchObject({ track: { name: 'Preshow' }, time: 0, playmode: PLAYMODES.stop });
  });

  it('a playing transport moves on with the clock, into the next track of its set list', () => {
    const clock = new ManualClock();
    const state = demoState({ clock });
    state.transports.command([main], 'play');

    clock.advanceSeconds(310); // Preshow is 300 s long

    expect(state.transports.positionOf(main)).toMatchObject({ track: { name: 'Intro' }, time: 10, playmode: 'play' });
    expect(transportNamed(state, 'main').currentTrack.name).toBe('Intro');
  });

  it('play stops at the end of the last track', () => {
    const clock = new ManualClock();
    const state = demoState({ clock });
    state.transports.cue([{ transport: main, target: () => ({ trackIndex: 4, time: 400 }), playmode: 'play' }]);

    clock.advanceSeconds(60);

    expect(state.transports.positionOf(main)).toMatchObject({ track: { name: 'Finale' }, time: 420, playmode: 'stop' });
  });

  it('play to end of section stops where the next section starts', () => {
    const clock = new ManualClock();
    const state = demoState({ clock });
    state.transports.command([main], 'playsection'); // Preshow section 1 runs 0 to 120 s

    clock.advanceSeconds(50);
    expect(state.transports.positionOf(main)).toMatchObject({ time: 50, playmode: 'play to end of section' });
    clock.advanceSeconds(500);
    expect(state.transports.positionOf(main)).toMatchObject({ track: { name: 'Preshow' }, time: 120, playmode: 'stop' });
  });

  it('loop section wraps inside the current section', () => {
    const clock = new ManualClock();
    const state = demoState({ clock });
    state.transports.cue([{ transport: main, target: () => ({ trackIndex: 0, time: 130 }), playmode: 'loop section' }]); // section 2: 120 to 240 s

    clock.advanceSeconds(120 + 15);

    expect(state.transports.positionOf(main)).toMatchObject({ track: { name: 'Preshow' }, time: 145, playmode: 'loop section' });
  });

  it('a stopped transport stays where it is', () => {
    const clock = new ManualClock();
    const state = demoState({ clock });
    clock.advanceSeconds(1000);
    expect(state.transports.positionOf(main)).toMatchObject({ time: 0, playmode: 'stop' });
  });

  it('a multitransport addresses each of its transports', () => {
    const state = demoState();
    state.transports.command([{ name: 'stage' }], 'play');
    expect(state.transports.list().map(({ name, playmode }) => [name, playmode])).toEqual([
      ['main', 'play'],
      ['side screens', 'play'],
      ['lobby', 'stop'],
    ]);
  });

  it('refuses an unknown transport, naming it and the known ones, and changes nothing', () => {
    const state = demoState();
    const refusal = refusalOf(() => state.transports.command([main, { name: 'mian' }], 'play'));
    expect(refusal.code).toBe(StatusCode.notFound);
    expect(refusal.message).toContain('"mian"');
    expect(refusal.message).toContain('"main"');
    expect(transportNamed(state, 'main').playmode).toBe('stop');
  });

  it('refuses an empty transports array', () => {
    expect(refusalOf(() => demoState().transports.command([], 'play')).code).toBe(StatusCode.invalidArgument);
  });
});

describe('active transport', () => {
  it('reports every sub-transport while a multitransport is selected, and one transport otherwise', () => {
    const state = demoState();
    expect(state.transports.active().map((transport) => transport.name)).toEqual(['main', 'side screens']);
    state.transports.selectActive({ name: 'lobby' });
    expect(state.transports.active().map((transport) => transport.name)).toEqual(['lobby']);
  });

  it('a multitransport is engaged when all of its transports are', () => {
    const state = demoState();
    state.transports.setEngaged([{ transport: { name: 'side screens' }, engaged: false }]);
    expect(state.transports.multitransportList()[0]).toMatchObject({ name: 'stage', engaged: false });
  });
});

describe('levels', () => {
  it('sets volume and brightness from 0 to 1 and refuses values outside', () => {
    const state = demoState();
    state.transports.setVolume([{ transport: main, value: 0.25 }]);
    state.transports.setBrightness([{ transport: main, value: 0 }]);
    expect(transportNamed(state, 'main')).toMatchObject({ volume: 0.25, brightness: 0 });
    expect(refusalOf(() => state.transports.setVolume([{ transport: main, value: 1.5 }])).code).toBe(StatusCode.outOfRange);
  });
});
