/** Times as a venue says them: `--from 21:00` on the log's show day, after midnight before 06:00, at the log's offset. */
import { describe, expect, it } from 'vitest';
import { parseReportArgs } from '../../src/report/report-args.js';
import { durationText, offsetMinutesOf, parseTimeArg, resolveTimeArg, wallClock } from '../../src/report/report-times.js';

const resolve = (text: string, offsetMinutes = 60) => {
  const arg = parseTimeArg(text);
  if (!arg) throw new Error(`${text} did not parse`);
  return resolveTimeArg(arg, '2026-11-27', offsetMinutes).toISOString();
};

describe('report times', () => {
  it('puts a clock time on the show day, and one before 06:00 after its midnight', () => {
    expect(resolve('21:00')).toBe('2026-11-27T20:00:00.000Z');
    expect(resolve('21:03:30')).toBe('2026-11-27T20:03:30.000Z');
    expect(resolve('05:59')).toBe('2026-11-28T04:59:00.000Z');
    expect(resolve('06:00')).toBe('2026-11-27T05:00:00.000Z');
    // A venue west of UTC.
    expect(resolve('21:00', -300)).toBe('2026-11-28T02:00:00.000Z');
  });

  it('reads a full time with its own offset, or the log\'s when it has none', () => {
    expect(resolve('2026-11-27T21:00:00+02:00')).toBe('2026-11-27T19:00:00.000Z');
    expect(resolve('2026-11-27T21:00Z')).toBe('2026-11-27T21:00:00.000Z');
    expect(resolve('2026-11-27 21:00')).toBe('2026-11-27T20:00:00.000Z');
  });

  it('takes a date as a show day: from its 06:00 to the next morning\'s, at the log\'s offset', () => {
    const day = parseTimeArg('2026-11-28');
    expect(day).toEqual({ kind: 'day', date: '2026-11-28', text: '2026-11-28' });
    if (!day) return;
    expect(resolveTimeArg(day, '2026-11-27', 60, 'from').toISOString()).toBe('2026-11-28T05:00:00.000Z');
    expect(resolveTimeArg(day, '2026-11-27', 60, 'to').toISOString()).toBe('2026-11-29T05:00:00.000Z');
    expect(resolveTimeArg(day, '2026-11-27', -300, 'from').toISOString()).toBe('2026-11-28T11:00:00.000Z');
  });

  it('refuses what is not a time', () => {
    for (const text of ['9pm', '24:00', '21:60', '21', '2026-13-01T21:00', '2026-02-30', '2026-11', 'tomorrow', '']) expect(parseTimeArg(text), text).toBeUndefined();
  });

  it('shows an instant at the log\'s offset, whatever the zone it runs in', () => {
    const at = Date.parse('2026-11-27T21:03:00.120+01:00');
    expect(offsetMinutesOf('2026-11-27T21:03:00.120+01:00')).toBe(60);
    expect(offsetMinutesOf('2026-07-01T21:03:00.120-04:30')).toBe(-270);
    expect(wallClock(at, 60)).toBe('21:03:00');
    expect(wallClock(at, 60, true)).toBe('2026-11-27 21:03:00');
    expect([durationText(850), durationText(42_000), durationText(185_000), durationText(3_720_000)]).toEqual(['850 ms', '42 s', '3 min 05 s', '1 h 02 min']);
  });

  it('reads the command line: the log, the window and the page to write', () => {
    expect(parseReportArgs(['show/', '--from', '21:00', '--to=21:10', '-o', 'finale.html'])).toMatchObject({ kind: 'report', log: 'show/', from: { kind: 'clock', hours: 21 }, to: { kind: 'clock', minutes: 10 }, output: 'finale.html' });
    expect(parseReportArgs(['show.ndjson'])).toEqual({ kind: 'report', log: 'show.ndjson', output: 'report.html' });
    expect(() => parseReportArgs(['a', 'b'])).toThrow(/One show log at a time/);
    expect(() => parseReportArgs(['a', '-o'])).toThrow(/-o needs a value/);
  });
});
