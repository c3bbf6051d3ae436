import type { HealthEntry, MediaServer, SessionInfo, Transport } from '@stagelink/core';
import { SessionMembers, type MembershipChanges } from './session-members.js';

/**
 * One look at the session: each read succeeds or fails on its own; `added` and `removed` say which machines and
 * transports came or went (see SessionMembers: only a read that succeeded without one removes it).
 */
export interface PollRound extends MembershipChanges {
  session: PromiseSettledResult<SessionInfo>;
  health: PromiseSettledResult<HealthEntry[]>;
  transports: PromiseSettledResult<Transport[]>;
}

/**
 * One read's deadline, whatever the interval: rounds never overlap (a slow round only delays the next), so a short
 * interval must not shorten the reads and turn a busy director into "no link".
 */
const READ_TIMEOUT_MS = 1500;

/**
 * The bridge's one poller: session, health and transports, read together every interval (start to start), never
 * two rounds at once; each round says which machines and transports came or went since the last. `pollSoon` asks
 * for a round now, e.g. after a cue, so transport state follows at once.
 */
export class SessionPoller {
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #again = false;
  #stopped = false;
  readonly #abort = new AbortController();
  readonly #members = new SessionMembers();

  constructor(
    private readonly mediaServer: MediaServer,
    private readonly intervalMs: number,
    private readonly onRound: (round: PollRound) => void,
  ) {}

  start(): void {
    void this.#round();
  }

  pollSoon(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    void this.#round();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#abort.abort();
  }

  async #round(): Promise<void> {
    if (this.#stopped) return;
    this.#running = true;
    const started = performance.now();
    const options = { signal: this.#abort.signal, timeoutMs: READ_TIMEOUT_MS };
    const [session, health, transports] = await Promise.allSettled([
      this.mediaServer.status.session(options),
      this.mediaServer.status.health(options),
      this.mediaServer.transport.transports(options).then((answer) => answer.transports),
    ]);
    this.#running = false;
    if (this.#stopped) return;
    this.onRound({ session, health, transports, ...this.#members.update({ session, health, transports }) });
    if (this.#again) {
      this.#again = false;
      void this.#round();
      return;
    }
    this.#timer = setTimeout(() => void this.#round(), Math.max(0, this.intervalMs - (performance.now() - started)));
  }
}
