/**
 * What a show clock key or touch strip shows, worked out from core's clock by src/state/clock/clock-reading.ts
 * and drawn by clock-face.ts (a key) and clock-feedback.ts (a Stream Deck + strip).
 */
import type { WaitingReason } from './faces.js';

/** `warn`: under the orange threshold; `flash`: under the flashing one while the transport plays. */
export type ClockAlert = 'none' | 'warn' | 'flash';

export type ClockView =
  /** The clock is live: big digits, what they count under them, and how far through it the playhead is. */
  | {
      kind: 'clock';
      transport: string;
      /** `1:23`, `1:02:03`; `--` when there is nothing to count to (no next cue). */
      digits: string;
      /** What the digits count: `SECTION 2`, `TRACK END`, the track's name, the next cue's name (over `--` where the playhead stops before it); `NO CUE`. */
      label: string;
      alert: ClockAlert;
      /** Whether the alert colour fills the face in this frame: always under `warn`, every other half second under `flash`. */
      lit: boolean;
      /** From 0 to 1: how far the playhead is through the section, track or the time to the next cue. */
      progress: number;
    }
  /** The link is up but the playhead stopped moving while playing, or its values stopped: no moving clock. */
  | { kind: 'stale'; transport: string }
  /** Nothing reaches us from the server. */
  | { kind: 'noLink'; transport: string }
  /** Before the first playhead. */
  | { kind: 'waiting'; transport: string; reason: WaitingReason }
  /** The server answers, but large answers (the transport list) stop part way. */
  | { kind: 'largeAnswersFail'; transport: string }
  /** The server answered, but not with a clock (no such transport); the log says why. */
  | { kind: 'problem'; transport: string }
  /** The settings are incomplete or wrong; the log and the settings page say what to set. */
  | { kind: 'setup'; transport: string | undefined };
