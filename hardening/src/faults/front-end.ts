import type { FaultServer } from './steps.js';

/** A dial turn: the value shown reached the server, the dial alerted, or neither within the limit. */
export type TurnOutcome = 'ack' | 'error' | 'silent';

export type CommandOutcome = TurnOutcome | UnclearError;

/** An error that does not say what failed (no stagelink error): a finding, not a clear error. */
export interface UnclearError {
  unclear: string;
}

/** A front end under the faults: it sends commands to a server and shows that server's live values. */
export interface FaultFrontEnd {
  readonly name: string;
  /**
   * True when the front end can be told where machines whose names do not resolve are (a host map, or backup
   * addresses to ask): only then can it follow the director to such a machine (r34's `ACTOR01`).
   */
  readonly followsUnresolvedDirector: boolean;
  /** Sends one cue to `server`; resolves with its outcome once known (silent: none within the limit). */
  command(server: FaultServer, index: number): Promise<CommandOutcome>;
  /** Turns a level dial one tick (up on even `index`, down on odd); acked when the server has the value shown. */
  turnDial?(server: FaultServer, index: number): Promise<TurnOutcome>;
  /** A point in time to compare live values and states against. */
  mark(): Promise<LiveMark>;
  /** Milliseconds from `since` until a live value of `server` arrived; undefined when none came within `limitMs`. */
  liveResumed(server: FaultServer, since: LiveMark, limitMs: number): Promise<number | undefined>;
  /** True when the front end showed `server`'s live value as offline at some time after `since`. */
  showedOffline(server: FaultServer, since: LiveMark): Promise<boolean>;
  /** True while the process runs and answers. */
  alive(): Promise<boolean>;
  /** Removes everything that holds a live socket (the flow, the keys). */
  release(): Promise<void>;
}

export interface LiveMark {
  at: number;
  /** Front-end specific position (an index into what was recorded). */
  position: Record<string, number>;
}
