import type { StaleReason } from './stale-reasons.js';
import { belongsTo, stateKey, type BridgeAdapter, type Member, type SessionValue, type StateEvent } from './session-events.js';

/**
 * The bridge's one stream of the session's state: keeps each value's last event, passes on only what changed (a
 * value, a mark) to every adapter, in the order they were given, and makes a value stale (its last value with the
 * reason) when it can no longer be seen. A value of a machine or transport that is not there (it left, or a late
 * live value arrives after it did) is not passed on.
 */
export class SessionStateStream {
  readonly #last = new Map<string, { event: StateEvent; json: string }>();
  readonly #members = new Map<string, Member>();
  readonly #adapters: BridgeAdapter[] = [];
  #closed = false;

  /** Adds an output; every later event goes to it. */
  use(adapter: BridgeAdapter | undefined): void {
    if (adapter) this.#adapters.push(adapter);
  }

  /** Every adapter's start, once they all exist. */
  start(): void {
    for (const adapter of this.#adapters) adapter.start?.();
  }

  added(member: Member): void {
    const key = memberKey(member);
    if (this.#closed || this.#members.has(key)) return;
    this.#members.set(key, { what: member.what, which: member.which });
    for (const adapter of this.#adapters) adapter.added?.(member);
  }

  /** A member left: its values are forgotten (not republished, not marked) and every adapter is told. */
  removed(member: Member): void {
    if (this.#closed || !this.#members.delete(memberKey(member))) return;
    for (const [key, { event }] of this.#last) if (belongsTo(event, member)) this.#last.delete(key);
    for (const adapter of this.#adapters) adapter.removed(member);
  }

  /** A live value: passed on when it differs from the last one (a live value clears a mark). */
  state(value: SessionValue): void {
    this.#emit(value);
  }

  /** The value's last event marked stale for `reason`, at once; nothing when it has none or is already so marked. */
  markStale(value: Pick<StateEvent, 'what' | 'part'> & { which?: string }, reason: StaleReason): void {
    const last = this.#last.get(stateKey(value))?.event;
    if (!last || last.marks?.reason === reason) return;
    this.#emit({ ...last, marks: { stale: true, reason } });
  }

  /** The machines and transports there now. */
  members(what?: Member['what']): Member[] {
    return [...this.#members.values()].filter((member) => what === undefined || member.what === what);
  }

  /** The last event of every value, for an output that must say everything again (a broker that restarted). */
  events(): StateEvent[] {
    return [...this.#last.values()].map(({ event }) => event);
  }

  close(): void {
    this.#closed = true;
  }

  #emit(event: StateEvent): void {
    if (this.#closed) return;
    if ('which' in event && !this.#members.has(memberKey(event))) return;
    const key = stateKey(event);
    const json = JSON.stringify([event.value, event.marks]);
    if (this.#last.get(key)?.json === json) return;
    this.#last.set(key, { event, json });
    for (const adapter of this.#adapters) adapter.state(event);
  }
}

function memberKey({ what, which }: Member): string {
  return `${what} ${which}`;
}
