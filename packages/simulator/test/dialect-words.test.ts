import { endpoints } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import { dialectWords } from '../src/state/dialect.js';
import { PLAYMODES } from '../src/state/playmodes.js';
import { StatusCode } from '../src/state/refusal.js';
import { demoState, refusalOf } from './support/demo-state.js';

const spec = dialectWords('spec');
const r34 = dialectWords('r34');

describe('playmodes in each dialect', () => {
  it('takes the enum names core sends in both dialects, and NotSet or nothing as "keep the play state"', () => {
    for (const words of [spec, r34]) {
      expect(['Play', 'PlaySection', 'Loop', 'Stop'].map((word) => words.requestedPlaymode(word))).toEqual([
        PLAYMODES.play,
        PLAYMODES.playSection,
        PLAYMODES.loopSection,
        PLAYMODES.stop,
      ]);
      expect(words.requestedPlaymode('NotSet')).toBeUndefined();
      expect(words.requestedPlaymode(undefined)).toBeUndefined();
    }
  });

  it('takes the documents\' own words in any case in the spec dialect only', () => {
    expect(['play', 'loop section', 'Play To End Of Section', 'playloopsection', 'STOP'].map((word) => spec.requestedPlaymode(word))).toEqual([
      PLAYMODES.play,
      PLAYMODES.loopSection,
      PLAYMODES.playSection,
      PLAYMODES.loopSection,
      PLAYMODES.stop,
    ]);
    for (const word of ['play', 'LoopSection', 'loop section', 'PLAY']) {
      expect(refusalOf(() => r34.requestedPlaymode(word)).code, word).toBe(StatusCode.invalidArgument);
    }
  });

  it('reports the documents\' words in spec and the enum names in r34', () => {
    const transport = demoState().transports.list()[0];
    if (!transport) throw new Error('the demo show has transports');
    const reported = (words: typeof spec) =>
      Object.values(PLAYMODES).map((playmode) => words.transport({ ...transport, playmode }).playmode);
    expect(reported(spec)).toEqual(Object.values(PLAYMODES));
    expect(reported(r34)).toEqual(Object.values(PLAYMODES).map((playmode) => ({ play: 'Play', 'loop section': 'Loop', 'play to end of section': 'PlaySection', stop: 'Stop' })[playmode]));
  });
});

describe('sections, tags and refusals', () => {
  it('reads a 0-based section index from text or a number, and refuses a name with r34\'s words', () => {
    for (const words of [spec, r34]) expect([words.sectionIndex('0'), words.sectionIndex('1'), words.sectionIndex(2)]).toEqual([0, 1, 2]);
    expect(refusalOf(() => r34.sectionIndex('Chorus')).message).toBe("Invalid value for field 'section' of type uint64");
    expect(refusalOf(() => spec.sectionIndex('Chorus')).code).toBe(StatusCode.invalidArgument);
  });

  it('compares tag types in any case in spec, and only as r34\'s upper-case enum in r34', () => {
    expect(['CUE', 'cue', 'Cue'].map((asked) => spec.tagTypeMatches(asked, 'CUE'))).toEqual([true, true, true]);
    expect(['CUE', 'cue', 'TC'].map((asked) => r34.tagTypeMatches(asked, 'CUE'))).toEqual([true, false, false]);
    expect(r34.tagTypeMatches('TagType_Unknown', 'OSC')).toBe(true);
    expect(r34.tagTypeMatches('TagType_Unknown', 'MIDI')).toBe(false);
  });

  it('puts a refusal\'s reason in status.message in spec, and only in the details with code 4000 or 1000 in r34', () => {
    expect(spec.refusal(StatusCode.notFound, 'No track "Encore".')).toEqual({ status: { code: 5, message: 'No track "Encore".', details: [] } });
    expect(r34.refusal(StatusCode.notFound, 'No track "Encore".')).toEqual({ status: { code: 4000, message: '', details: [{ message: 'No track "Encore".' }] } });
    expect(r34.refusal(StatusCode.optionDisabled, 'off')).toMatchObject({ status: { code: 1000, message: '' } });
  });

  it('answers a path the build lacks with the envelope in spec and plain text in r34', () => {
    expect(spec.notOffered(404, 'No such endpoint.')).toMatchObject({ status: { code: StatusCode.notFound } });
    expect(r34.notOffered(404, 'No such endpoint.')).toBe('No such endpoint.');
    expect(r34.notOffered(405, 'Use POST.')).toBe('Use POST.');
  });

  it('offers the endpoints beyond the documents in r34 only, and the documents\' looks in spec only', () => {
    expect([endpoints.speed, endpoints.ledStripGet, endpoints.looks].map((endpoint) => spec.offers(endpoint))).toEqual([false, false, true]);
    expect([endpoints.speed, endpoints.ledStripGet, endpoints.looks].map((endpoint) => r34.offers(endpoint))).toEqual([true, true, false]);
  });
});

describe('health and machine names', () => {
  it('reports ready and lower-case categories in r34 where spec says ok and Connection', () => {
    const health = demoState().health();
    const states = (entries: typeof health) => entries.flatMap((entry) => entry.status.states.map(({ category, severity }) => `${category}/${severity}`));
    expect(states(spec.health(health))).toContain('Connection/ok');
    expect(states(r34.health(health))).toContain('connection/ready');
    expect(states(r34.health(health))).toContain('genlock/warning');
    expect(states(r34.health(health)).some((state) => /[A-Z]|\/ok$/.test(state))).toBe(false);
  });

  it('names r34 machines like Windows machines, in every scenario, keeping their human names', () => {
    for (const scenario of ['demo', 'session'] as const) {
      const state = demoState({ scenario, dialect: 'r34' });
      expect(state.machines.hostnames()).toEqual(['DIRECTOR01', 'ACTOR01', 'ACTOR02', 'UNDERSTUDY01']);
      expect(state.machines.all().map((machine) => machine.name)).toEqual(['Director', 'Actor 1', 'Actor 2', 'Understudy 1']);
    }
    expect(demoState({ scenario: 'solo', dialect: 'r34' }).machines.hostnames()).toEqual(['MEDIASERVER01']);
    expect(demoState({ scenario: 'demo', dialect: 'spec' }).machines.hostnames()).toEqual(['127.0.0.1', 'actor-1', 'actor-2', 'understudy-1']);
  });

  it('keeps each session machine on its loopback alias, found by hostname in any case', () => {
    const state = demoState({ scenario: 'session', dialect: 'r34' });
    expect(['director01', 'ACTOR01', 'Actor02', 'UNDERSTUDY01'].map((hostname) => state.addressOf(hostname))).toEqual(['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5']);
    state.machines.moveDirector('actor02');
    expect(state.machines.local.hostname).toBe('ACTOR02');
    expect(state.addressOf('ACTOR02')).toBe('127.0.0.4');
  });
});
