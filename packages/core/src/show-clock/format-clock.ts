import { InvalidInputError } from '../errors.js';

export interface FormatClockOptions {
  /**
   * `timecode` (the default): `hh:mm:ss:ff`, frames at `fps` (`hh:mm:ss;ff` drop-frame at 29.97 and 59.94);
   * `seconds`: the tenths of seconds passed (`83.4`); `countdown`: `m:ss` (`h:mm:ss` from an hour), each second
   * shown until it has fully passed, as a countdown reads.
   */
  mode?: 'timecode' | 'seconds' | 'countdown';
  /** Frames a second for `timecode` (default 25). */
  fps?: number;
}

/**
 * A clock time in seconds as a desk shows it; a time below zero shows as zero, and a time that is no number of
 * seconds (NaN, infinite) as dashes in the mode's shape, never as digits that look like a time.
 */
export function formatClock(seconds: number, options: FormatClockOptions = {}): string {
  const { mode = 'timecode', fps = 25 } = options;
  if (typeof seconds !== 'number') throw new InvalidInputError(`formatClock takes seconds as a number (got ${String(seconds)}).`);
  const known = Number.isFinite(seconds);
  const time = Math.max(0, seconds);
  switch (mode) {
    case 'seconds':
      // Times worked out by subtraction land a hair under a tenth (0.3 - 0.2 is 0.09999999999999998).
      return known ? (Math.floor(time * 10 + 1e-6) / 10).toFixed(1) : '--.-';
    case 'countdown':
      return known ? hoursMinutesSeconds(Math.ceil(time - 1e-9)) : '-:--';
    case 'timecode':
      if (!Number.isFinite(fps) || fps <= 0) throw new InvalidInputError(`fps must be a number of frames a second above 0 (got ${String(fps)}).`);
      return timecode(known ? time : undefined, fps);
    default:
      throw new InvalidInputError(`mode must be timecode, seconds or countdown (got ${String(mode)}).`);
  }
}

/**
 * NTSC rates run at 30000/1001 and 60000/1001 frames a second: counted as 30 or 60 a second, an hour of show reads
 * 3.6 s short. SMPTE drop-frame timecode skips the first frame numbers of each minute but every tenth (two at
 * 29.97, four at 59.94), so the timecode keeps to the wall clock, and writes `;` before the frames to say so.
 */
const DROP_FRAME_RATES = [
  { nominal: 30, dropped: 2, rate: 30000 / 1001 },
  { nominal: 60, dropped: 4, rate: 60000 / 1001 },
] as const;

function timecode(time: number | undefined, fps: number): string {
  const dropFrame = DROP_FRAME_RATES.find(({ rate }) => Math.abs(fps - rate) < 0.01);
  const separator = dropFrame ? ';' : ':';
  if (time === undefined) return `--:--:--${separator}--`;
  const frameRate = dropFrame?.nominal ?? Math.round(fps);
  const counted = Math.floor(time * (dropFrame?.rate ?? fps) + 1e-6);
  const frames = dropFrame ? dropFrameNumber(counted, dropFrame) : counted;
  const whole = Math.floor(frames / frameRate);
  const [hours, minutes, secs] = [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60].map(twoDigits);
  return `${hours}:${minutes}:${secs}${separator}${twoDigits(frames % frameRate)}`;
}

/** The frame number a drop-frame timecode shows for the `frames`-th frame: the count plus the numbers skipped. */
function dropFrameNumber(frames: number, { nominal, dropped }: { nominal: number; dropped: number }): number {
  const perMinute = nominal * 60 - dropped;
  const perTenMinutes = nominal * 600 - dropped * 9;
  const tens = Math.floor(frames / perTenMinutes);
  const rest = frames % perTenMinutes;
  const minutesDropped = rest > dropped ? Math.floor((rest - dropped) / perMinute) : 0;
  return frames + dropped * (9 * tens + minutesDropped);
}

function hoursMinutesSeconds(whole: number): string {
  const [hours, minutes, secs] = [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60];
  return hours > 0 ? `${hours}:${twoDigits(minutes)}:${twoDigits(secs)}` : `${minutes}:${twoDigits(secs)}`;
}

const twoDigits = (value: number): string => String(value).padStart(2, '0');
