/** Core show clock snapshots for the clock's unit tests: track `Preshow` (300 s), sections at 0, 120 and 240. */
import type { ShowClockSnapshot } from '@stagelink/core';

const SECTIONS = [0, 120, 240];
const LENGTH = 300;
const CUES = [
  { kind: 'CUE', value: 'Doors', time: 60 },
  { kind: 'note', value: 'Five minute call', time: 240 },
];

/** The clock of `main` with the playhead at `time`, as core gives it while online and playing. */
export function snapshotAt(time: number, changes: Partial<ShowClockSnapshot> = {}): ShowClockSnapshot {
  const position = SECTIONS.filter((start) => start <= time).length - 1;
  const start = SECTIONS[position] ?? 0;
  const end = SECTIONS[position + 1] ?? LENGTH;
  const next = CUES.find((cue) => cue.time > time);
  const current = CUES.filter((cue) => cue.time <= time).at(-1);
  return {
    transport: { uid: '1', name: 'main' },
    status: 'online',
    playmode: 'Play',
    playing: true,
    time,
    track: { uid: '10', name: 'Preshow', length: LENGTH },
    trackRemaining: LENGTH - time,
    section: { index: position, time: start, elapsed: time - start, remaining: end - time },
    ...(SECTIONS[position + 1] === undefined ? {} : { nextSection: { index: position + 1, time: end } }),
    cue: { ...(current && { current }), ...(next && { next, nextIn: next.time - time }) },
    volume: 1,
    brightness: 1,
    engaged: true,
    ...changes,
  };
}
