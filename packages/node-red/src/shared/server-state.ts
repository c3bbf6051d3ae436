import { isUnreachable, type DirectorChange, type LinkStatus, type MediaServer } from '@stagelink/core';

/**
 * Where a `stagelink-server` stands, as every node that uses it shows it (as Node-RED's MQTT broker node pushes
 * connecting / connected / disconnected to its users): a setting that cannot make a client at all, not asked yet,
 * answering (with the director it follows), or not answering.
 */
export type ServerState = { kind: 'broken' } | { kind: 'connecting' } | { kind: 'connected'; director?: string } | { kind: 'unreachable' };

export type ServerStateListener = (state: ServerState) => void;

/**
 * How often an idle server is asked whether it still answers. While the live-update socket is up, its heartbeat
 * already says so and nothing is asked; without it, a server that went away between cues would look connected.
 */
export const PROBE_EVERY_MS = 10_000;
/** One probe's deadline, retries included: a machine slower than this to say who directs the session is in trouble. */
const PROBE_TIMEOUT_MS = 5000;
/**
 * Probes in a row that get no answer before the server is shown unreachable: a director busy on its main thread
 * answers one late now and then, and every node would show a working server unreachable until the next probe.
 */
const MISSES_BEFORE_UNREACHABLE = 2;

/**
 * Watches one config node's client for as long as some node watches it: asks `status/session` (which every
 * machine answers) at once and then every PROBE_EVERY_MS, follows the live socket's link status and the director
 * as it moves, and tells each watcher the state when it changes (and the current one when it starts watching).
 */
export class ServerStateWatch {
  readonly #watchers = new Set<ServerStateListener>();
  #state: ServerState;
  #timer: NodeJS.Timeout | undefined;
  #probing: AbortController | undefined;
  /** Probes in a row that got no answer. */
  #misses = 0;
  #closed = false;

  /** Without a client (a setting that cannot make one) the state is `broken` for good. */
  constructor(private readonly client: MediaServer | undefined) {
    this.#state = client ? { kind: 'connecting' } : { kind: 'broken' };
  }

  /** Tells `listener` the state now and on every change; answers what stops it. */
  watch(listener: ServerStateListener): () => void {
    this.#watchers.add(listener);
    tell(listener, this.#state);
    if (this.#watchers.size === 1) this.#start();
    return () => {
      if (!this.#watchers.delete(listener)) return;
      if (this.#watchers.size === 0) this.#stop();
    };
  }

  /** Stops probing and forgets every watcher. Safe to call more than once. */
  close(): void {
    this.#closed = true;
    this.#watchers.clear();
    this.#stop();
  }

  readonly #onLink = (status: LinkStatus): void => {
    if (status === 'online') this.#set({ kind: 'connected', director: this.#director() });
    // A dropped stream may be the socket alone: the HTTP side is asked before anything says unreachable.
    else if (status === 'offline') this.#probe();
  };

  readonly #onDirector = (_change: DirectorChange): void => {
    if (this.#state.kind === 'connected') this.#set({ kind: 'connected', director: this.#director() });
  };

  #start(): void {
    const client = this.client;
    if (!client || this.#closed) return;
    client.live.on('status', this.#onLink);
    client.on('director', this.#onDirector);
    this.#probe();
  }

  #stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#probing?.abort();
    this.#probing = undefined;
    this.client?.live.off('status', this.#onLink);
    this.client?.off('director', this.#onDirector);
    // Nothing was asked while no node watched: the next watcher is not shown a state from minutes ago.
    if (this.#state.kind !== 'broken') this.#state = { kind: 'connecting' };
    this.#misses = 0;
  }

  #probe(): void {
    const client = this.client;
    if (!client || this.#closed || this.#probing || this.#watchers.size === 0) return;
    clearTimeout(this.#timer);
    const probing = new AbortController();
    this.#probing = probing;
    client.status
      .session({ timeoutMs: PROBE_TIMEOUT_MS, signal: probing.signal })
      .then(
        () => {
          // An answer that lands after the last watcher went is not kept: the next one starts at connecting.
          if (!probing.signal.aborted) this.#answered();
        },
        (error: unknown) => {
          if (probing.signal.aborted) return;
          // Any answer, even a refusal, says the machine is there; only silence is unreachable.
          if (!isUnreachable(error)) this.#answered();
          else if (++this.#misses >= MISSES_BEFORE_UNREACHABLE) this.#set({ kind: 'unreachable' });
        },
      )
      .finally(() => {
        if (this.#probing !== probing) return;
        this.#probing = undefined;
        // A first miss is asked again at once: the next probe says whether the server is really gone.
        if (this.#misses === 1) this.#probe();
        else this.#schedule();
      })
      // #set tells each watcher apart; this only keeps a fault of this chain from reaching the process.
      .catch(() => undefined);
  }

  #answered(): void {
    this.#misses = 0;
    this.#set({ kind: 'connected', director: this.#director() });
  }

  #schedule(): void {
    if (this.#closed || this.#watchers.size === 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.client?.live.status === 'online') this.#schedule();
      else this.#probe();
    }, PROBE_EVERY_MS);
  }

  #director(): string | undefined {
    return this.client?.director?.solo === false ? this.client.director.hostname : undefined;
  }

  #set(state: ServerState): void {
    if (this.#closed || sameState(state, this.#state)) return;
    this.#state = state;
    for (const watcher of [...this.#watchers]) tell(watcher, state);
  }
}

/** A watcher that throws (a node's status or log failing) must not stop the others, nor the runtime. */
function tell(watcher: ServerStateListener, state: ServerState): void {
  try {
    watcher(state);
  } catch {
    // The watcher's own node is where such a fault shows; the state goes on to the other watchers.
  }
}

function sameState(a: ServerState, b: ServerState): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'connected' && b.kind === 'connected') return a.director === b.director;
  return true;
}
