/**
 * Which value sent by the director a subscriber received, so its delivery latency is known to the millisecond
 * without the value carrying a time: each machine's values leave the director in order, and reach a subscriber
 * in order, some perhaps missing. A received value is matched to the earliest send of that value, for that
 * machine, after the send its previous receipt was matched to and not after it arrived. Values change at every
 * send (the director sends only changes), so the match is exact while nothing is lost; after a loss it can only
 * pick an earlier send of the same value, reading the latency long, never short.
 */

/** Times (ms, on the shared clock: `sharedNow()`) and values, in send order. */
export interface SentLog {
  at: number[];
  values: number[];
}

/** What one subscriber received from one machine, in arrival order. */
export interface Receipts {
  at: number[];
  values: number[];
}

/** Two processes read the shared clock alike; this only absorbs rounding (ms). */
const CLOCK_SLACK_MS = 0.1;

/** Calls `matched` with the send time and latency of every receipt matched to a send. */
export function matchReceipts(sent: SentLog, received: Receipts, matched: (sentAt: number, latencyMs: number) => void): void {
  let next = 0;
  for (let index = 0; index < received.at.length; index++) {
    const arrived = received.at[index] ?? 0;
    const value = received.values[index];
    for (let send = next; send < sent.at.length && (sent.at[send] ?? 0) <= arrived + CLOCK_SLACK_MS; send++) {
      if (sent.values[send] !== value) continue;
      const sentAt = sent.at[send] ?? 0;
      matched(sentAt, Math.max(0, arrived - sentAt));
      next = send + 1;
      break;
    }
  }
}

/**
 * The clock every process on this machine shares, in ms with sub-millisecond precision: the system's monotonic
 * clock. (`performance.timeOrigin` is rounded to the millisecond per process, so two processes' `performance`
 * times can differ by up to a millisecond.)
 */
export function sharedNow(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
