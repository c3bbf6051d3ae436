import { describe, expect, it } from 'vitest';
import { FRAME_RATE, parseTimecode, toFrame, toNextSection, toNextTrack, toNote, toPrevSection, toPrevTrack, toSection, toTag, toTime, toTimecode, toTrack, type CueTarget } from '../src/state/cues.js';
import { StatusCode } from '../src/state/refusal.js';
import { MAX_UINT64_UID } from '../src/state/uids.js';
import { demoState, refusalOf, transportNamed } from './support/demo-state.js';

const main = { name: 'main' };

function cueMain(target: CueTarget, playmode?: string) {
  const state = demoState();
  state.transports.cue([{ transport: main, target, playmode: state.words.requestedPlaymode(playmode) }]);
  return { state, position: state.transports.positionOf(main) };
}

/** A state whose main transport sits in a track and time, for the relative moves. */
function mainAt(trackIndex: number, time: number) {
  const state = demoState();
  state.transports.cue([{ transport: main, target: () => ({ trackIndex, time }) }]);
  return state;
}

describe('goto moves', () => {
  it('gototrack jumps to the start of the track and makes it the current track', () => {
    const { state, position } = cueMain(toTrack({ name: 'Act 1' }));
    expect(position).toMatchObject({ track: { name: 'Act 1' }, time: 0 });
    expect(transportNamed(state, 'main').currentTrack.name).toBe('Act 1');
  });

  it('gototrack finds a track by a uint64 uid compared as a string', () => {
    const { position } = cueMain(toTrack({ uid: MAX_UINT64_UID }));
    expect(position.track).toEqual({ uid: MAX_UINT64_UID, name: 'Finale' });
  });

  it('gototrack refuses a track outside the set list, naming it', () => {
    const refusal = refusalOf(() => cueMain(toTrack({ name: 'Lyrics' })));
    expect(refusal.code).toBe(StatusCode.notFound);
    expect(refusal.message).toMatch(/Track "Lyrics" not found in set list "Main show" of transport "main"/);
  });

  it('gotonexttrack and gotoprevtrack step through the set list and refuse past its ends', () => {
    const state = mainAt(1, 30);
    state.transports.cue([{ transport: main, target: toNextTrack }]);
    expect(state.transports.positionOf(main)).toMatchObject({ track: { name: 'Act 1' }, time: 0 });
    state.transports.cue([{ transport: main, target: toPrevTrack }]);
    state.transports.cue([{ transport: main, target: toPrevTrack }]);
    expect(state.transports.positionOf(main).track.name).toBe('Preshow');
    const refusal = refusalOf(() => state.transports.cue([{ transport: main, target: toPrevTrack }]));
    expect(refusal.code).toBe(StatusCode.outOfRange);
    expect(refusal.message).toContain('first track');
  });

  it('gotosection, gotonextsection and gotoprevsection move between sections of the current track', () => {
    const state = mainAt(0, 130); // Preshow sections start at 0, 120, 240
    state.transports.cue([{ transport: main, target: toNextSection }]);
    expect(state.transports.positionOf(main).time).toBe(240);
    state.transports.cue([{ transport: main, target: toPrevSection }]);
    expect(state.transports.positionOf(main).time).toBe(120);
    state.transports.cue([{ transport: main, target: toSection(0) }]);
    expect(state.transports.positionOf(main).time).toBe(0);
    expect(refusalOf(() => state.transports.cue([{ transport: main, target: toSection(9) }])).message).toContain('sections: 0, 1, 2');
  });

  it('gototime and gotoframe move inside the current track and refuse places outside it', () => {
    expect(cueMain(toTime(42.5)).position.time).toBe(42.5);
    expect(cueMain(toFrame(90)).position.time).toBe(90 / FRAME_RATE);
    expect(refusalOf(() => cueMain(toTime(301))).code).toBe(StatusCode.outOfRange);
    expect(refusalOf(() => cueMain(toFrame(-1))).code).toBe(StatusCode.outOfRange);
  });

  it('gotonote finds a note in another track of the set list', () => {
    expect(cueMain(toNote('Pyro standby')).position).toMatchObject({ track: { name: 'Act 1' }, time: 300 });
    expect(refusalOf(() => cueMain(toNote('Nope'))).code).toBe(StatusCode.notFound);
  });

  it('gototag searches other tracks only with allowGlobalJump', () => {
    const words = demoState().words;
    expect(refusalOf(() => cueMain(toTag('CUE', 'Q3', false, words.tagTypeMatches))).message).toContain('allowGlobalJump is false');
    expect(cueMain(toTag('cue', 'Q3', true, words.tagTypeMatches)).position).toMatchObject({ track: { name: 'Act 1' }, time: 300 });
    expect(cueMain(toTag('CUE', 'Q1', false, words.tagTypeMatches)).position).toMatchObject({ track: { name: 'Preshow' }, time: 120 });
  });

  it('gototimecode places a timecode through the TC tags, or from the set list start with ignoreTags', () => {
    expect(cueMain(toTimecode('10:05:30:00', false)).position).toMatchObject({ track: { name: 'Intro' }, time: 30 });
    expect(cueMain(toTimecode('00:05:10:15', true)).position).toMatchObject({ track: { name: 'Intro' }, time: 10.5 });
    expect(refusalOf(() => cueMain(toTimecode('09:00:00:00', false))).message).toContain('ignoreTags: true');
    expect(refusalOf(() => cueMain(toTimecode('10:00', false))).code).toBe(StatusCode.invalidArgument);
  });

  it('parses timecode at the project frame rate', () => {
    expect(parseTimecode('01:02:03:15')).toBe(3723.5);
    expect(() => parseTimecode(`00:00:00:${FRAME_RATE}`)).toThrow(/HH:MM:SS:FF/);
  });
});

describe('goto playmodes', () => {
  it('a goto sets the playmode it asks for, by name or by command', () => {
    expect(cueMain(toTrack({ name: 'Intro' }), 'play').position.playmode).toBe('play');
    expect(cueMain(toTrack({ name: 'Intro' }), 'playloopsection').position.playmode).toBe('loop section');
    expect(cueMain(toTrack({ name: 'Intro' }), 'Play to end of section').position.playmode).toBe('play to end of section');
  });

  it('a goto without a playmode keeps the transport playing as it was', () => {
    const state = demoState();
    state.transports.command([main], 'play');
    state.transports.cue([{ transport: main, target: toTrack({ name: 'Intro' }) }]);
    expect(state.transports.positionOf(main).playmode).toBe('play');
  });

  it('refuses an unknown playmode and leaves the transport alone', () => {
    const state = demoState();
    const refusal = refusalOf(() => state.transports.cue([{ transport: main, target: toTrack({ name: 'Intro' }), playmode: state.words.requestedPlaymode('fast forward') }]));
    expect(refusal.code).toBe(StatusCode.invalidArgument);
    expect(state.transports.positionOf(main).track.name).toBe('Preshow');
  });

  it('checks every item before moving any transport', () => {
    const state = demoState();
    refusalOf(() =>
      state.transports.cue([
        { transport: main, target: toTrack({ name: 'Intro' }) },
        { transport: { name: 'lobby' }, target: toTrack({ name: 'Intro' }) },
      ]),
    );
    expect(state.transports.positionOf(main).track.name).toBe('Preshow');
  });
});
