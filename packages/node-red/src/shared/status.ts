import { isUnreachable, StagelinkError, Throttle } from '@stagelink/core';
import { hasWords, say } from './words.js';
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

  constructor(node: Node<never> | Node<Record<string, string>>, { standing }: { standing?: string } = {}) {
    this.#node = node;
    // Texts are cut when shown, not when pushed: most pushes of a busy node are replaced before they show.
    this.#throttle = new Throttle((status) => node.status(status.text === undefined ? status : { ...status, text: short(status.text) }), STATUS_WINDOW_MS);
    this.#standing = standing;
  }

  ok(text: string): void {
    this.#own = 'result';
    this.#throttle.push({ fill: 'green', shape: 'dot', text: this.#text(text) });
  }

  /** Red, or yellow for a failure that says the machine is there (see WARNINGS). */
  failed(error: unknown): void {
    this.#own = isUnreachable(error) ? 'link' : 'result';
    this.#throttle.push({ fill: isWarning(error) ? 'yellow' : 'red', shape: 'dot', text: this.#text(errorSummary(error)) });
  }

  warning(text: string): void {
    this.#own = 'result';
    this.#throttle.push({ fill: 'yellow', shape: 'dot', text: this.#text(text) });
  }

  /** The standing word alone, as a warning: what the node shows before its first message. */
  standingWarning(): void {
    if (this.#standing !== undefined) this.#throttle.push({ fill: 'yellow', shape: 'dot', text: this.#standing });
  }

  working(text: string): void {
    this.#own = 'result';
    this.#throttle.push({ fill: 'blue', shape: 'ring', text: this.#text(text) });
  }

  connecting(): void {
    this.#own = 'link';
    this.#throttle.push({ fill: 'yellow', shape: 'ring', text: this.#text(say('status.connecting')) });
  }

  /** Never leave a value on screen that looks live while it is not. */
  offline(text = say('status.offline')): void {
    this.#own = 'link';
    this.#throttle.push({ fill: 'red', shape: 'ring', text: this.#text(text) });
  }

  /**
   * The link is up but this node's values stopped and asking again brought none: not offline (the machine
   * answers, other values may flow), and never the last value as if it were live.
   */
  stale(text = say('status.stale')): void {
    this.#own = 'result';
    this.#throttle.push({ fill: 'yellow', shape: 'ring', text: this.#text(text) });
  }

  show(status: NodeStatus): void {
    this.#own = 'result';
    this.#throttle.push({ ...status, text: status.text === undefined ? undefined : this.#text(status.text) });
  }

  /**
   * Where the node's server stands (see showServerState): shown at once, past the throttle, as it changes seldom,
   * replacing an update still waiting. Good news (connecting, connected) never replaces a result of the node's own
   * other than a failure to reach the server; bad news (unreachable, a broken setting) always shows.
   */
  serverState(status: NodeStatus, news: 'good' | 'bad'): void {
    if (news === 'good' && this.#own === 'result') return;
    this.#own = 'none';
    this.#throttle.cancel();
    this.#node.status({ ...status, text: status.text === undefined ? undefined : short(this.#text(status.text)) });
  }

  clear(): void {
    this.#throttle.push({});
  }

  /**
   * Drops the update waiting and clears the line: Node-RED clears the status of removed nodes only, so a node
   * restarted by a deploy would otherwise keep showing what it showed before ("play main", "unreachable").
   */
  close(): void {
    this.#throttle.close();
    this.#node.status({});
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
 * for the error's code (each at most 20 characters), else "failed"; the message goes to the log. Among them: a
 * stalled answer is a network (MTU) problem, not a machine that is down; a late-landed cue was read back once and
 * never sent again.
 */
export function errorSummary(error: unknown): string {
  const own = error instanceof StagelinkError ? `summary.${error.code}` : undefined;
  return say(own !== undefined && hasWords(own) ? own : 'summary.failed');
}

function isWarning(error: unknown): boolean {
  return error instanceof StagelinkError && WARNINGS.has(error.code);
}
