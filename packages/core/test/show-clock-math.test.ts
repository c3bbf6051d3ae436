import { describe, expect, it } from 'vitest';
import { formatClock } from '../src/show-clock/format-clock.js';
import { playheadAt, positionIn, sectionAt, timelineOf, type PlayerReading } from '../src/show-clock/clock-math.js';

/** A 300 s track with sections at 0, 120 and 240, a CUE tag at 100 and a note at 130. */
const timeline = timelineOf(
  { uid: '7', name: 'Intro', length: 300 },
  {
    sections: [
      { time: 120, index: 1 },
      { time: 0, index: 0 },
      { time: 240, index: 2 },
    ],
    tags: [{ time: 100, type: 'CUE', value: 'Q1' }],
    notes: [{ time: 130, text: 'lights' }],
  },
);

const reading = (time: number, playmode: PlayerReading['playmode'], playing = playmode !== 'Stop'): PlayerReading => ({ time, at: 1000, playing, playmode });

describe('the show clock: where the playhead is between the director\'s updates', () => {
  it('moves on with the time since the last playhead while playing, and stands still otherwise', () => {
    expect(playheadAt(reading(10, 'Play'), timeline, 3500)).toBeCloseTo(12.5);
    expect(playheadAt(reading(10, 'Stop'), timeline, 3500)).toBe(10);
    expect(playheadAt(reading(10, 'Play', false), timeline, 3500)).toBe(10);
  });

  it('stops a PlaySection at its section\'s end, wraps a Loop inside its section, and stops Play at the track\'s end', () => {
    expect(playheadAt(reading(115, 'PlaySection'), timeline, 11_000)).toBe(120);
    expect(playheadAt(reading(235, 'Loop'), timeline, 11_000)).toBeCloseTo(125);
    expect(playheadAt(reading(295, 'Play'), timeline, 11_000)).toBe(300);
  });
});

describe('the show clock: sections and cues at a time', () => {
  it('finds the section a time falls in, by start time whatever order the server lists them', () => {
    expect(sectionAt(timeline, 0)).toMatchObject({ index: 0, start: 0, end: 120 });
    expect(sectionAt(timeline, 120)).toMatchObject({ index: 1, start: 120, end: 240 });
    expect(sectionAt(timeline, 299)).toMatchObject({ index: 2, start: 240, end: 300 });
  });

  it('gives the section, the next one, the remainders and the cues around the playhead', () => {
    expect(positionIn(timeline, 110)).toEqual({
      time: 110,
      trackRemaining: 190,
      section: { index: 0, time: 0, elapsed: 110, remaining: 10 },
      nextSection: { index: 1, time: 120 },
      cue: { current: { kind: 'CUE', value: 'Q1', time: 100 }, next: { kind: 'note', value: 'lights', time: 130 }, nextIn: 20 },
    });
    expect(positionIn(timeline, 250)).toMatchObject({ section: { index: 2, remaining: 50 }, cue: { current: { value: 'lights' } } });
    expect(positionIn(timeline, 250).nextSection).toBeUndefined();
    expect(positionIn(timeline, 250).cue?.next).toBeUndefined();
  });

  it('gives a Loop what it will play next: its own section again, and the first cue after the wrap', () => {
    // Looping section 1 (120 to 240) at 200: the note at 130 comes again 40 s to the wrap and 10 s after it.
    expect(positionIn(timeline, 200, 'Loop')).toMatchObject({
      section: { index: 1, remaining: 40 },
      nextSection: { index: 1, time: 120 },
      cue: { current: { value: 'lights' }, next: { value: 'lights', time: 130 }, nextIn: 50 },
    });
    // Ahead of the playhead inside the loop, the next cue is as in Play.
    expect(positionIn(timeline, 125, 'Loop').cue).toMatchObject({ next: { value: 'lights' }, nextIn: 5 });
    // Section 2 has no cue: its loop never reaches the tag at 100 or the note at 130.
    expect(positionIn(timeline, 250, 'Loop').cue?.next).toBeUndefined();
  });

  it('names the next cue beyond a PlaySection\'s end without a time to it: the playhead stops before it', () => {
    // Playing section 0 (0 to 120) to its end at 110: the note at 130 is next, but not reached by itself.
    expect(positionIn(timeline, 110, 'PlaySection').cue).toEqual({ current: { kind: 'CUE', value: 'Q1', time: 100 }, next: { kind: 'note', value: 'lights', time: 130 } });
    // Inside the section, the next cue is counted down as in Play.
    expect(positionIn(timeline, 90, 'PlaySection').cue).toMatchObject({ next: { value: 'Q1' }, nextIn: 10 });
    // A cue on the section's end is reached: the playhead stops on it.
    const onTheEnd = timelineOf({ uid: '9', name: 'End cue', length: 300 }, { sections: [{ time: 0, index: 0 }, { time: 120, index: 1 }], tags: [{ time: 120, type: 'CUE', value: 'Q2' }], notes: [] });
    expect(positionIn(onTheEnd, 110, 'PlaySection').cue).toMatchObject({ next: { value: 'Q2' }, nextIn: 10 });
  });

  it('has no section or cue on a track without annotations', () => {
    const bare = timelineOf({ uid: '8', name: 'Bare', length: 60 }, undefined);
    expect(positionIn(bare, 20)).toEqual({ time: 20, trackRemaining: 40 });
    expect(playheadAt(reading(59, 'Loop'), bare, 3000)).toBeCloseTo(1);
  });
});

describe('formatClock', () => {
  it('writes timecode with frames at the given rate', () => {
    expect(formatClock(3723.5, { fps: 25 })).toBe('01:02:03:12');
    expect(formatClock(59.99, { fps: 30 })).toBe('00:00:59:29');
    expect(formatClock(-3)).toBe('00:00:00:00');
  });

  it('writes a countdown that shows each second until it has passed, and seconds with one decimal', () => {
    expect(formatClock(9.2, { mode: 'countdown' })).toBe('0:10');
    expect(formatClock(60, { mode: 'countdown' })).toBe('1:00');
    expect(formatClock(3600.5, { mode: 'countdown' })).toBe('1:00:01');
    expect(formatClock(0, { mode: 'countdown' })).toBe('0:00');
    expect(formatClock(83.46, { mode: 'seconds' })).toBe('83.4');
  });

  it('counts drop-frame timecode at 29.97 and 59.94, so an hour of show reads one hour', () => {
    expect(formatClock(3600, { fps: 29.97 })).toBe('01:00:00;00');
    expect(formatClock(3600, { fps: 30000 / 1001 })).toBe('01:00:00;00');
    expect(formatClock(3600, { fps: 29.97002997 })).toBe('01:00:00;00');
    expect(formatClock(3600, { fps: 59.94 })).toBe('01:00:00;00');
    // Frame numbers 00 and 01 are skipped at each minute but every tenth: 59;29 is followed by 1:00;02.
    expect(formatClock(1799 / (30000 / 1001), { fps: 29.97 })).toBe('00:00:59;29');
    expect(formatClock(1800 / (30000 / 1001), { fps: 29.97 })).toBe('00:01:00;02');
    expect(formatClock(600, { fps: 29.97 })).toBe('00:10:00;00');
    expect(formatClock(3600 + 1800 / (60000 / 1001) + 1e-4, { fps: 59.94 })).toBe('01:00:30;00');
    expect(formatClock(3600, { fps: 30 })).toBe('01:00:00:00');
  });

  it('shows a time that is no number of seconds as a placeholder, in the shape of its mode', () => {
    expect(formatClock(Number.POSITIVE_INFINITY)).toBe('--:--:--:--');
    expect(formatClock(Number.NaN, { fps: 29.97 })).toBe('--:--:--;--');
    expect(formatClock(Number.NEGATIVE_INFINITY, { mode: 'countdown' })).toBe('-:--');
    expect(formatClock(Number.NaN, { mode: 'seconds' })).toBe('--.-');
  });

  it('writes the tenths a worked-out time has passed, not one tenth less for a rounding error', () => {
    expect(formatClock(0.1, { mode: 'seconds' })).toBe('0.1');
    expect(formatClock(0.3 - 0.2, { mode: 'seconds' })).toBe('0.1');
    expect(formatClock(1.2 - 1.1, { mode: 'seconds' })).toBe('0.1');
    expect(formatClock(0.7 - 0.4, { mode: 'seconds' })).toBe('0.3');
    expect(formatClock(0.09, { mode: 'seconds' })).toBe('0.0');
  });

  it('refuses what is not a time or a frame rate', () => {
    expect(() => formatClock('12' as never)).toThrow(/seconds as a number/);
    expect(() => formatClock(1, { fps: 0 })).toThrow(/fps/);
    expect(() => formatClock(1, { mode: 'hours' as never })).toThrow(/mode/);
  });
});
