import { ConnectionError, StagelinkError, StalledAnswerError } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import type { ClockView } from '../../src/render/clock-view.js';
import { asSettings } from '../../src/settings.js';
import { clockView, readClockTarget, type ClockTarget } from '../../src/state/clock/clock-reading.js';
import { snapshotAt } from './clock-snapshots.js';

const target = (changes: Partial<ClockTarget> = {}): ClockTarget => ({ transport: 'main', show: 'sectionRemaining', warnAt: 10, flashAt: 5, ...changes });
const live = { linkOnline: true } as const;
const counting = (view: ClockView): Extract<ClockView, { kind: 'clock' }> => {
  if (view.kind !== 'clock') throw new Error(`expected a live clock, got ${view.kind}`);
  return view;
};

describe("a show clock key's settings", () => {
  it('count the section down by default, orange under 10 s and flashing under 5 s', () => {
    expect(readClockTarget({ transport: 'main' })).toEqual({ transport: 'main', show: 'sectionRemaining', warnAt: 10, flashAt: 5 });
  });

  it('take thresholds as numbers or the text a field stores, and 0 to turn one off', () => {
    expect(readClockTarget({ transport: 'main', show: 'nextCueIn', warnAt: '30', flashAt: 0 })).toEqual({ transport: 'main', show: 'nextCueIn', warnAt: 30, flashAt: 0 });
    expect(readClockTarget({ transport: 'main', warnAt: '' })).toMatchObject({ warnAt: 10 });
  });

  it('say what to set instead of guessing', () => {
    expect(readClockTarget({})).toBe('Choose a transport.');
    expect(readClockTarget({ transport: 'main', show: 'remaining' })).toMatch(/^Show must be one of sectionRemaining, trackRemaining, playhead, nextCueIn/);
    expect(readClockTarget({ transport: 'main', warnAt: -1 })).toMatch(/^"Orange under" must be a number of seconds/);
    expect(readClockTarget({ transport: 'main', flashAt: 'soon' })).toMatch(/^"Flash under" must be a number of seconds/);
    // A hand-edited profile may hold anything: an object is not taken for the default.
    expect(readClockTarget(asSettings({ transport: 'main', warnAt: { seconds: 5 } }))).toMatch(/^"Orange under" must be a number of seconds/);
    expect(readClockTarget(asSettings({ transport: 'main', show: ['playhead'] }))).toMatch(/^Show must be one of/);
  });
});

describe('what a show clock key shows', () => {
  it('counts down what remains of the section, with its index under the digits', () => {
    const view = counting(clockView(target(), { snapshot: snapshotAt(130.4), ...live }));
    expect(view).toMatchObject({ digits: '1:50', label: 'SECTION 1', alert: 'none', lit: false });
    expect(view.progress).toBeCloseTo(10.4 / 120, 6);
  });

  it('counts the track down, shows the playhead in whole seconds, or counts to the next cue, naming it', () => {
    expect(counting(clockView(target({ show: 'trackRemaining' }), { snapshot: snapshotAt(130.4), ...live }))).toMatchObject({ digits: '2:50', label: 'TRACK END' });
    const playhead = counting(clockView(target({ show: 'playhead' }), { snapshot: snapshotAt(130.9), ...live }));
    expect(playhead).toMatchObject({ digits: '2:10', label: 'Preshow', alert: 'none' });
    expect(playhead.progress).toBeCloseTo(130.9 / 300, 6);
    const cue = counting(clockView(target({ show: 'nextCueIn' }), { snapshot: snapshotAt(230.5), ...live }));
    expect(cue).toMatchObject({ digits: '0:10', label: 'Five minute call', alert: 'warn' });
    expect(cue.progress).toBeCloseTo((230.5 - 60) / 180, 6);
  });

  it('counts to the end of the track where the track has no sections', () => {
    const withoutSections = snapshotAt(100);
    delete withoutSections.section;
    delete withoutSections.nextSection;
    expect(counting(clockView(target(), { snapshot: withoutSections, ...live }))).toMatchObject({ digits: '3:20', label: 'TRACK END' });
  });

  it('shows no number when there is no cue left to count to', () => {
    expect(clockView(target({ show: 'nextCueIn' }), { snapshot: snapshotAt(250), ...live })).toMatchObject({ kind: 'clock', digits: '--', label: 'NO CUE', alert: 'none' });
  });

  it('names the next cue over no number when the playhead stops before it (a section played to its end)', () => {
    const playingToTheEnd = snapshotAt(200, { playmode: 'PlaySection', cue: { next: { kind: 'note', value: 'Five minute call', time: 250 } } });
    expect(clockView(target({ show: 'nextCueIn' }), { snapshot: playingToTheEnd, ...live })).toMatchObject({ kind: 'clock', digits: '--', label: 'Five minute call', alert: 'none' });
  });

  it('turns orange under the warning threshold and flashes under the second, lit for the first half of each second shown', () => {
    expect(counting(clockView(target(), { snapshot: snapshotAt(229.9), ...live })).alert).toBe('none');
    expect(counting(clockView(target(), { snapshot: snapshotAt(230.1), ...live }))).toMatchObject({ digits: '0:10', alert: 'warn', lit: true });
    // 4.7 s left shows 0:05 in its first half: lit; 4.3 s left, its second half: dark.
    expect(counting(clockView(target(), { snapshot: snapshotAt(235.3), ...live }))).toMatchObject({ digits: '0:05', alert: 'flash', lit: true });
    expect(counting(clockView(target(), { snapshot: snapshotAt(235.7), ...live }))).toMatchObject({ digits: '0:05', alert: 'flash', lit: false });
  });

  it('does not flash a countdown that is not running, and keeps it orange', () => {
    const stopped = snapshotAt(237, { playing: false, playmode: 'Stop' });
    expect(counting(clockView(target(), { snapshot: stopped, ...live }))).toMatchObject({ digits: '0:03', alert: 'warn', lit: true });
  });

  it('takes the thresholds from the key, and warns nothing at 0', () => {
    expect(counting(clockView(target({ warnAt: 60 }), { snapshot: snapshotAt(190), ...live })).alert).toBe('warn');
    expect(counting(clockView(target({ warnAt: 0, flashAt: 0 }), { snapshot: snapshotAt(239.5), ...live })).alert).toBe('none');
  });

  it('never warns on the playhead, which counts up', () => {
    expect(counting(clockView(target({ show: 'playhead' }), { snapshot: snapshotAt(299), ...live })).alert).toBe('none');
  });

  it('says STALE or NO LINK instead of a clock that is not live', () => {
    expect(clockView(target(), { snapshot: snapshotAt(130, { status: 'stale' }), ...live })).toEqual({ kind: 'stale', transport: 'main' });
    expect(clockView(target(), { snapshot: snapshotAt(130, { status: 'offline' }), linkOnline: false })).toEqual({ kind: 'noLink', transport: 'main' });
  });

  it('before the first playhead, says why: connecting, no data yet, no link, large answers failing, or a problem', () => {
    expect(clockView(target(), { snapshot: undefined, linkOnline: false })).toEqual({ kind: 'waiting', transport: 'main', reason: 'connecting' });
    expect(clockView(target(), { snapshot: undefined, linkOnline: true })).toEqual({ kind: 'waiting', transport: 'main', reason: 'no data' });
    const unreachable = new ConnectionError('connect ECONNREFUSED 10.0.0.5:80');
    expect(clockView(target(), { snapshot: undefined, error: unreachable, linkOnline: false })).toEqual({ kind: 'noLink', transport: 'main' });
    const stalled = new StalledAnswerError('the answer stopped after its headers', 4000);
    expect(clockView(target(), { snapshot: undefined, error: stalled, linkOnline: true }).kind).toBe('largeAnswersFail');
    const missing = new StagelinkError('There is no transport "mian" on the server, so its clock cannot be shown: check the name.');
    expect(clockView(target(), { snapshot: undefined, error: missing, linkOnline: true })).toEqual({ kind: 'problem', transport: 'main' });
  });
});
