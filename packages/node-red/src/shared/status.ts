import type { Node, NodeStatus } from './node-red.js';
import { Throttle } from './status-throttle.js';

/** Long enough for "page 3/12" or "play main", short enough for the workspace. */
const MAX_TEXT = 40;

/**
 * The status line under a node, throttled (see Throttle). Green for success, red for failure, yellow for work
 * in progress or a warning, grey ring for offline: the colours a show operator reads at a glance.
 */
export class StatusLine {
  readonly #throttle: Throttle<NodeStatus | Record<string, never>>;

  constructor(node: Node<never> | Node<Record<string, string>>) {
    this.#throttle = new Throttle((status) => node.status(status));
  }

  ok(text: string): void {
    this.#throttle.push({ fill: 'green', shape: 'dot', text: short(text) });
  }

  failed(error: unknown): void {
    this.#throttle.push({ fill: 'red', shape: 'dot', text: short(errorSummary(error)) });
  }

  warning(text: string): void {
    this.#throttle.push({ fill: 'yellow', shape: 'dot', text: short(text) });
  }

  working(text: string): void {
    this.#throttle.push({ fill: 'blue', shape: 'ring', text: short(text) });
  }

  connecting(): void {
    this.#throttle.push({ fill: 'yellow', shape: 'ring', text: 'connecting' });
  }

  /** Never leave a value on screen that looks live while it is not. */
  offline(text = 'offline'): void {
    this.#throttle.push({ fill: 'red', shape: 'ring', text: short(text) });
  }

  show(status: NodeStatus): void {
    this.#throttle.push({ ...status, text: status.text === undefined ? undefined : short(status.text) });
  }

  clear(): void {
    this.#throttle.push({});
  }

  close(): void {
    this.#throttle.close();
  }
}

export function short(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= MAX_TEXT ? oneLine : `${oneLine.slice(0, MAX_TEXT - 1)}…`;
}

/** A few words for the status line: the error's class name says enough there; the message goes to the log. */
export function errorSummary(error: unknown): string {
  if (error instanceof Error) {
    const words: Record<string, string> = {
      ConnectionError: 'unreachable',
      TimeoutError: 'no answer',
      AuthError: 'refused: login or token',
      NotFoundError: 'not found',
      DriveNotFoundError: 'not found',
      StatusError: 'refused by server',
      ConfirmationRequiredError: 'not confirmed',
      InvalidInputError: 'invalid input',
      LiveUpdateError: 'live update error',
      AbortedError: 'stopped',
      ConflictError: 'conflict',
      HttpError: 'server error',
    };
    return words[error.name] ?? 'failed';
  }
  return 'failed';
}
