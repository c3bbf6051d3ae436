import type { BridgeLog } from './log.js';
import type { Topics } from './topics.js';

/**
 * The MQTT 5 subscription identifier of the sweep's subscription: its messages are told apart from commands and
 * discovery by the identifier the broker sends with them, not by guessing from the topic.
 */
export const SWEEP_SUBSCRIPTION_ID = 7;

/** Retained messages follow the grant of a subscription at once; this long after it, they have all come. */
const SETTLE_MS = 500;

/** What the sweep needs of the broker connection. */
export interface SweepLink {
  /** Publishes an empty retained payload: the broker forgets the topic. */
  clear(topic: string): void;
  unsubscribe(topics: readonly string[]): void;
  isConnected(): boolean;
}

/**
 * Clears what an earlier run of the bridge left retained under its prefix and this run does not publish: the
 * machines that have left the session since (and transports and RenderStream layers no longer there). Their last
 * values would otherwise read as live for ever. At start the bridge subscribes to its own machine, transport and
 * layer topics to see what the broker holds; once the session has been read in full, every retained topic found
 * there that this run does not publish is cleared, and the subscription is dropped. It is taken again on a reconnect
 * only until that is done.
 */
export class EarlierRunSweep {
  /** Topics seen retained under the prefix: candidates for clearing. */
  readonly #seen = new Set<string>();
  /** The topics this run publishes, as of the first full read of the session. */
  #own: ReadonlySet<string> | undefined;
  /** The subscription was granted on this connection and its retained messages have had time to come. */
  #settled = false;
  #timer: NodeJS.Timeout | undefined;
  #done = false;

  constructor(
    private readonly topics: Topics,
    private readonly link: SweepLink,
    private readonly log: BridgeLog,
  ) {}

  /** What to subscribe to (with SWEEP_SUBSCRIPTION_ID) on a connect: nothing once the sweep is done. */
  get subscriptions(): string[] {
    return this.#done ? [] : this.#swept;
  }

  /** Connected (again): the grant on the new connection is waited for. */
  connected(): void {
    this.#settled = false;
    clearTimeout(this.#timer);
  }

  /** The broker granted the subscription: the retained messages are on their way. */
  subscribed(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#settled = true;
      this.#sweep();
    }, SETTLE_MS);
  }

  /** A message of the sweep's subscription; only retained ones are what an earlier run left (live ones are this run's). */
  message(topic: string, payload: Buffer, retain: boolean): void {
    if (retain && payload.length > 0) this.#seen.add(topic);
  }

  /** The session was read in full: `own` is every machine and transport topic this run publishes. */
  sessionRead(own: ReadonlySet<string>): void {
    if (this.#done) return;
    this.#own = own;
    this.#sweep();
  }

  close(): void {
    clearTimeout(this.#timer);
  }

  #sweep(): void {
    const own = this.#own;
    if (this.#done || !own || !this.#settled || !this.link.isConnected()) return;
    const left = [...this.#seen].filter((topic) => !own.has(topic)).sort();
    for (const topic of left) this.link.clear(topic);
    if (left.length > 0) this.log.info('earlier run topics cleared', { count: left.length, topics: left.join(',') });
    this.#seen.clear();
    this.#done = true;
    this.link.unsubscribe(this.#swept);
  }

  /** Where an earlier run's values are: the other topics under the prefix are published by every run. */
  get #swept(): string[] {
    const { prefix } = this.topics;
    return [`${prefix}/machines/#`, `${prefix}/transports/#`, `${prefix}/renderstream/#`];
  }
}
