import { isUnreachable, StagelinkError, Throttle } from '@stagelink/core';
import { wordsKeyOf } from './error-words.js';
import { say } from './words.js';
import type { Node, NodeStatus } from './node-red.js';

/**
 * Every status update goes to the editor over the comms socket, and a live value at 100 ms on twenty nodes
 * would flood it: a few a second at most, the last one always shown.
 */
const STATUS_WINDOW_MS = 250;

/** Long enough for "page 3/12" or "play main", short enough for the workspace. */
const MAX_TEXT = 40;

/**
 * The status line under a node, throttled (see Throttle). Green for success, red for failure, yellow for work
 * in progress or a warning, a red ring for offline, a yellow ring for a stale value: the colours a show operator
 * reads at a glance.
 * A `standing` word (a failover node's "armed") stays in front of every text, so the next result never hides it.
 */
export class StatusLine {
  readonly #throttle: Throttle<NodeStatus | Record<string, never>>;
  readonly #standing: string | undefined;
  readonly #node: Node<never> | Node<Record<string, string>>;
  /**
   * What the line shows of the node's own: nothing yet (or the server's state), a failure that says the server is
   * not reached, or any other result. The server's good news never hides a result (a "play main", a refusal).
   */
  #own: 'none' | 'link' | 'result' = 'none';
  /**
   * A live node's line (a subscription's, a show clock's): what it shows of its own is a standing state (online,
   * stale, offline) rather than the result of one msg, so the server's good news never replaces it, and once the
   * server's trouble has passed the line goes back to it. A server setting that cannot work stays shown: nothing
   * the node does can work until it is fixed.
   */
  readonly #live: boolean;
  /** A live line's last own status, shown again when the server's trouble passes. */
  #lastOwn: NodeStatus | undefined;
  #serverBroken = false;
  #closed = false;

  constructor(node: Node<never> | Node<Record<string, string>>, { standing, live = false }: { standing?: string; live?: boolean } = {}) {
    this.#node = node;
    this.#live = live;
    // Texts are cut when shown, not when pushed: most pushes of a busy node are replaced before they show.
    this.#throttle = new Throttle((status) => node.status(status.text === undefined ? status : { ...status, text: short(status.text) }), STATUS_WINDOW_MS);
    this.#standing = standing;
  }

  ok(text: string): void {
    this.#push('result', { fill: 'green', shape: 'dot', text: this.#text(text) });
  }

  /** Red, or yellow for a failure that says the machine is there (see WARNINGS). */
  failed(error: unknown): void {
    this.#push(isUnreachable(error) ? 'link' : 'result', { fill: isWarning(error) ? 'yellow' : 'red', shape: 'dot', text: this.#text(errorSummary(error)) });
  }

  warning(text: string): void {
    this.#push('result', { fill: 'yellow', shape: 'dot', text: this.#text(text) });
  }

  /** The standing word alone, as a warning: what the node shows before its first message. */
  standingWarning(): void {
    if (this.#standing !== undefined) this.#throttle.push({ fill: 'yellow', shape: 'dot', text: this.#standing });
  }

  working(text: string): void {
    this.#push('result', { fill: 'blue', shape: 'ring', text: this.#text(text) });
  }

  connecting(): void {
    this.#push('link', { fill: 'yellow', shape: 'ring', text: this.#text(say('status.connecting')) });
  }

  /** Never leave a value on screen that looks live while it is not. */
  offline(text = say('status.offline')): void {
    this.#push('link', { fill: 'red', shape: 'ring', text: this.#text(text) });
  }

  /**
   * The link is up but this node's values stopped and asking again brought none: not offline (the machine
   * answers, other values may flow), and never the last value as if it were live.
   */
  stale(text = say('status.stale')): void {
    this.#push('result', { fill: 'yellow', shape: 'ring', text: this.#text(text) });
  }

  show(status: NodeStatus): void {
    this.#push('result', { ...status, text: status.text === undefined ? undefined : this.#text(status.text) });
  }

  /**
   * Where the node's server stands (see showServerState): shown at once, past the throttle, as it changes seldom,
   * replacing an update still waiting. Good news (connecting, connected) never replaces a result of the node's own
   * other than a failure to reach the server; bad news (unreachable, a broken setting) always shows. On a live
   * line (see #live) good news never replaces the node's own state, and ends the server's trouble by showing it again.
   */
  serverState(status: NodeStatus, news: 'good' | 'bad' | 'broken'): void {
    this.#serverBroken = news === 'broken';
    if (news === 'good' && this.#live && this.#lastOwn !== undefined) {
      if (this.#own === 'none') this.#showNow(this.#lastOwn, 'result');
      return;
    }
    if (news === 'good' && this.#own === 'result') return;
    this.#showNow({ ...status, text: status.text === undefined ? undefined : this.#text(status.text) }, 'none');
  }

  clear(): void {
    this.#throttle.push({});
  }

  /**
   * Drops the update waiting and clears the line: Node-RED clears the status of removed nodes only, so a node
   * restarted by a deploy would otherwise keep showing what it showed before ("play main", "unreachable").
   */
  close(): void {
    this.#closed = true;
    this.#throttle.close();
    this.#node.status({});
  }

  #push(own: 'link' | 'result', status: NodeStatus): void {
    this.#own = own;
    if (!this.#live) {
      this.#throttle.push(status);
      return;
    }
    this.#lastOwn = status;
    if (!this.#serverBroken) this.#throttle.push(status);
  }

  /** Past the throttle, replacing an update still waiting: for the server's state, which changes seldom. */
  #showNow(status: NodeStatus, own: 'none' | 'result'): void {
    // A server's state that comes after the node closed must not paint over the cleared line.
    if (this.#closed) return;
    this.#own = own;
    this.#throttle.cancel();
    this.#node.status({ ...status, text: status.text === undefined ? undefined : short(status.text) });
  }

  #text(text: string): string {
    return this.#standing === undefined ? text : `${this.#standing} · ${text}`;
  }
}

export function short(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= MAX_TEXT ? oneLine : `${oneLine.slice(0, MAX_TEXT - 1)}…`;
}

/** Failures that say the machine is there: yellow, so they never read as the red of a machine that is down. */
const WARNINGS: ReadonlySet<string> = new Set(['STAGELINK_ERR_STALLED_ANSWER', 'STAGELINK_ERR_LATE_LANDED']);

/**
 * The few words of a failure on the status line: `summary.<code>` in the server node's catalog where it has words
 * for the error's code (each at most 20 characters; `_UNSENT` where the request provably never left), else
 * "failed"; the message goes to the log. Among them: a stalled answer is a network (MTU) problem, not a machine
 * that is down; a late-landed cue was read back once and never sent again; a cue whose deadline passed before it
 * could leave says it was not sent, not that no answer came.
 */
export function errorSummary(error: unknown): string {
  return say((error instanceof StagelinkError ? wordsKeyOf('summary', error) : undefined) ?? 'summary.failed');
}

function isWarning(error: unknown): boolean {
  return error instanceof StagelinkError && WARNINGS.has(error.code);
}
