import { InvalidInputError } from '../errors.js';

export interface FormatClockOptions {
  /**
   * `timecode` (the default): `hh:mm:ss:ff`, frames at `fps`; `seconds`: seconds with one decimal (`83.4`);
   * `countdown`: `m:ss` (`h:mm:ss` from an hour), each second shown until it has fully passed, as a countdown reads.
   */
  mode?: 'timecode' | 'seconds' | 'countdown';
  /** Frames a second for `timecode` (default 25). */
  fps?: number;
}

/** A clock time in seconds as a desk shows it; a time below zero shows as zero. */
export function formatClock(seconds: number, options: FormatClockOptions = {}): string {
  const { mode = 'timecode', fps = 25 } = options;
  if (typeof seconds !== 'number' || Number.isNaN(seconds)) throw new InvalidInputError(`formatClock takes seconds as a number (got ${String(seconds)}).`);
  const time = Math.max(0, seconds);
  switch (mode) {
    case 'seconds':
      return (Math.floor(time * 10) / 10).toFixed(1);
    case 'countdown':
      return hoursMinutesSeconds(Math.ceil(time - 1e-9));
    case 'timecode': {
      if (!Number.isFinite(fps) || fps <= 0) throw new InvalidInputError(`fps must be a number of frames a second above 0 (got ${String(fps)}).`);
      const frameRate = Math.round(fps);
      const frames = Math.floor(time * fps + 1e-6);
      const whole = Math.floor(frames / frameRate);
      return [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60, frames % frameRate].map(twoDigits).join(':');
    }
    default:
      throw new InvalidInputError(`mode must be timecode, seconds or countdown (got ${String(mode)}).`);
  }
}

function hoursMinutesSeconds(whole: number): string {
  const [hours, minutes, secs] = [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60];
  return hours > 0 ? `${hours}:${twoDigits(minutes)}:${twoDigits(secs)}` : `${minutes}:${twoDigits(secs)}`;
}

const twoDigits = (value: number): string => String(value).padStart(2, '0');
