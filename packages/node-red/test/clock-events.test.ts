import type { ShowClockSnapshot } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import { ClockEvents, shownStatus } from '../src/nodes/stagelink-clock/clock-events.js';
import { clockSettingsOf, thresholdsOf } from '../src/nodes/stagelink-clock/clock-settings.js';
import { liveText } from '../src/nodes/stagelink-clock/clock-feed.js';

/** The seeded Preshow track: 300 s, sections at 0, 120 and 240, cue Q1 at 120 and a note at 240. */
const CUES = [
  { kind: 'TC', value: '10:00:00:00', time: 0 },
  { kind: 'CUE', value: 'Q1', time: 120 },
  { kind: 'note', value: 'Five minute call', time: 240 },
];
const SECTIONS = [0, 120, 240];

function at(time: number, overrides: Partial<ShowClockSnapshot> = {}, track = { uid: 't1', name: 'Preshow', length: 300 }): ShowClockSnapshot {
  const index = SECTIONS.findLastIndex((start) => start <= time);
  const start = SECTIONS[index] as number;
  const end = SECTIONS[index + 1] ?? track.length;
  const nextAt = CUES.findIndex((cue) => cue.time > time);
  const current = CUES[(nextAt === -1 ? CUES.length : nextAt) - 1];
  const next = nextAt === -1 ? undefined : CUES[nextAt];
  return {
    transport: { uid: '1', name: 'main' },
    status: 'online',
    playmode: 'Play',
    playing: true,
    time,
    track,
    trackRemaining: track.length - time,
    section: { index, time: start, elapsed: time - start, remaining: end - time },
    ...(SECTIONS[index + 1] !== undefined && { nextSection: { index: index + 1, time: SECTIONS[index + 1] as number } }),
    cue: { ...(current && { current }), ...(next && { next, nextIn: next.time - time }) },
    volume: 1,
    brightness: 1,
    engaged: true,
    ...overrides,
  };
}

/** Plays from `from` to `to` in steps of 0.1 s of real time, collecting the events. */
function play(events: ClockEvents, from: number, to: number, startMs = 0): { event: string; value: unknown }[] {
  const seen: { event: string; value: unknown }[] = [];
  for (let step = 0; from + step * 0.1 <= to + 1e-9; step++) {
    for (const { event, payload } of events.see(at(from + step * 0.1), startMs + step * 100)) seen.push({ event, value: payload.value });
  }
  return seen;
}

describe('clock events', () => {
  it('tells each warning threshold once as the section runs down, then the next section and the cue passed at its start', () => {
    const events = new ClockEvents([5, 10]);
    expect(play(events, 105, 121)).toEqual([
      { event: 'remaining', value: 10 },
      { event: 'remaining', value: 5 },
      { event: 'section', value: 1 },
      { event: 'cue', value: { kind: 'CUE', value: 'Q1', time: 120 } },
    ]);
  });

  it('notes the first snapshot without an event, whatever it shows', () => {
    const events = new ClockEvents([10]);
    expect(events.see(at(115), 0)).toEqual([]);
    expect(events.see(at(115.1), 100)).toEqual([]);
  });

  it('does not call a cue jumped over passed, and warns once with the lowest threshold a jump lands under', () => {
    const events = new ClockEvents([5, 10, 30]);
    events.see(at(60), 0);
    const jumped = events.see(at(237), 100);
    expect(jumped.map(({ event, payload }) => [event, payload.value])).toEqual([
      ['section', 1],
      ['remaining', 5],
    ]);
    expect(jumped[0]?.payload).toMatchObject({ previous: 0, transport: 'main', track: 'Preshow', section: { index: 1 }, nextSection: { index: 2, time: 240 } });
  });

  it('warns again in a section played again (a loop wrapping), never while the remaining time goes up', () => {
    const events = new ClockEvents([10]);
    expect(play(events, 108, 112)).toEqual([{ event: 'remaining', value: 10 }]);
    expect(events.see(at(100), 4100)).toEqual([]);
    expect(play(events, 100, 112, 4200).filter(({ event }) => event === 'remaining')).toEqual([{ event: 'remaining', value: 10 }]);
  });

  it('tells nothing of what happened while the clock was stale or offline: its first live snapshot after is only noted', () => {
    const events = new ClockEvents([10]);
    events.see(at(100), 0);
    expect(events.see(at(100, { status: 'stale' }), 3000)).toEqual([]);
    expect(events.see(at(100, { status: 'offline' }), 20_000)).toEqual([]);
    expect(events.see(at(121), 21_000)).toEqual([]);
    expect(events.see(at(121.1), 21_100)).toEqual([]);
  });

  it('passes over snapshots whose track is not read yet: neither a section appearing nor a track change is lost or invented', () => {
    const events = new ClockEvents([10]);
    const unread = (time: number, track = { uid: 't1', name: 'Preshow', length: 0 }): ShowClockSnapshot => {
      const snapshot: ShowClockSnapshot = { ...at(time), track, trackRemaining: 0 };
      delete snapshot.section;
      delete snapshot.nextSection;
      delete snapshot.cue;
      return snapshot;
    };
    expect(events.see(unread(115), 0)).toEqual([]);
    expect(events.see(at(115.1), 100)).toEqual([]);
    expect(events.see(unread(0, { uid: 't2', name: 'Intro', length: 0 }), 200)).toEqual([]);
    const [change] = events.see(at(0.1, {}, { uid: 't2', name: 'Intro', length: 180 }), 300);
    expect(change).toMatchObject({ event: 'section', payload: { value: 0, previous: null, track: 'Intro', previousTrack: 'Preshow' } });
  });

  it('tells a section change on another track with no previous index and the track it came from', () => {
    const events = new ClockEvents([]);
    events.see(at(250), 0);
    const [change] = events.see(at(0, {}, { uid: 't2', name: 'Intro', length: 180 }), 100);
    expect(change).toMatchObject({ event: 'section', payload: { value: 0, previous: null, track: 'Intro', previousTrack: 'Preshow' } });
  });

  it('calls a clock without a playhead connecting until the link has been seen down', () => {
    expect(shownStatus('offline', false, false)).toBe('connecting');
    expect(shownStatus('offline', true, false)).toBe('offline');
    expect(shownStatus('offline', false, true)).toBe('offline');
    expect(shownStatus('stale', false, true)).toBe('stale');
    expect(shownStatus('online', false, true)).toBe('online');
  });
});

describe('clock settings and words', () => {
  it('reads the rate and the thresholds, refusing what cannot be used', () => {
    expect(clockSettingsOf({ id: 'n', type: 'stagelink-clock' })).toEqual({ rate: 4, thresholds: [5, 10, 30] });
    expect(clockSettingsOf({ id: 'n', type: 'stagelink-clock', rate: '2', thresholds: '10 3, 10' })).toEqual({ rate: 2, thresholds: [3, 10] });
    expect(thresholdsOf('')).toEqual([]);
    expect(() => clockSettingsOf({ id: 'n', type: 'stagelink-clock', rate: 0 })).toThrow(/rate must be a number of messages a second above 0 and at most 25 \(got 0\)/);
    expect(() => clockSettingsOf({ id: 'n', type: 'stagelink-clock', rate: 100 })).toThrow(/at most 25/);
    expect(() => thresholdsOf('10,soon')).toThrow(/Warn at must be seconds above 0, separated by commas, e.g. 30,10,5 \(got "10,soon"\)/);
    expect(() => thresholdsOf('-5')).toThrow(/Warn at/);
  });

  it('words the status line as an operator reads a countdown', () => {
    expect(liveText(at(108.2))).toBe('▶ −0:12 · section 0');
    expect(liveText(at(0, { playing: false }))).toBe('■ −2:00 · section 0');
    const withoutSections: ShowClockSnapshot = { ...at(30), track: { uid: 't', name: 'Interval', length: 1200 }, trackRemaining: 1170 };
    delete withoutSections.section;
    expect(liveText(withoutSections)).toBe('▶ −19:30 · track');
    expect(liveText({ ...withoutSections, track: { uid: 't', name: '', length: 0 } })).toBe('▶ 00:00:30:00');
  });
});
