/**
 * Where the model reads the time. Time-driven behaviour (a playing transport moving on, a capture finishing) is
 * worked out lazily from the clock when state is read, so the model owns no timers and tests can move time by hand.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
