import { AbortedError, InvalidInputError, type CallOptions } from '@stagelink/core';
import { setMaxListeners } from 'node:events';
import type { DoneFunction, Node, NodeMessage, SendFunction } from './node-red.js';
import type { StatusLine } from './status.js';
import { inRuntimeLanguage, sayError, sayingError } from './error-words.js';
import { say } from './words.js';

/** How long a close handler lets requests in flight finish (a cue should complete) before aborting them. */
export const CLOSE_GRACE_MS = 5000;

export interface InputContext {
  send: SendFunction;
  /** Aborted when the node closes and work is still running after the grace period. */
  signal: AbortSignal;
  /** For every call the msg makes: the signal, and `msg.timeout` as the call's deadline when given. */
  call: CallOptions;
}

/** Longer than any show would wait for one answer: a value above it is a mistake (seconds taken for ms). */
const MAX_TIMEOUT_MS = 120_000;
/**
 * Shorter than any answer over a network: a value below it is seconds taken for ms (`5` meant as 5 s would be a
 * 5 ms deadline that fails every call). Refused rather than read as seconds, so one number never means two things.
 */
export const MIN_TIMEOUT_MS = 100;

/** `msg.timeout`: the deadline in milliseconds of each call this msg makes, retries included. */
export function timeoutOf(msg: NodeMessage): number | undefined {
  const timeout = msg.timeout;
  if (timeout === undefined || timeout === null || timeout === '') return undefined;
  const ms = typeof timeout === 'string' ? Number(timeout) : timeout;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0 || ms > MAX_TIMEOUT_MS) {
    throw sayingError(InvalidInputError, 'error.timeoutRange', { min: MIN_TIMEOUT_MS, max: MAX_TIMEOUT_MS, got: JSON.stringify(timeout) ?? typeof timeout });
  }
  if (ms < MIN_TIMEOUT_MS) {
    throw sayingError(InvalidInputError, 'error.timeoutFloor', { ms, seconds: ms * 1000, min: MIN_TIMEOUT_MS });
  }
  return ms;
}

/** Requests in flight on one node beyond which Node warns of a listener leak. */
const IN_FLIGHT_WARNING = 1000;

/**
 * What every stagelink node with an input does with a message: run the async handler, end in `done()` or
 * `done(err)` (so Catch nodes see the failure, and nothing becomes an unhandled rejection that takes Node-RED
 * down), show a red status on failure, and let the close handler wait for or abort what is still running.
 */
export class NodeWork {
  readonly #controller = new AbortController();
  readonly #running = new Set<Promise<void>>();
  #closing = false;

  constructor() {
    // Each request in flight listens on this signal until it ends: a burst of cues is not a leak, and Node's
    // "possible memory leak" warning at its default of ten would only alarm whoever reads the Node-RED log.
    // A bound remains, so listeners that are never released still warn.
    setMaxListeners(IN_FLIGHT_WARNING, this.#controller.signal);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get closing(): boolean {
    return this.#closing;
  }

  /** Runs `task` as work of this node. The returned promise never rejects. */
  track(task: () => Promise<void>, onError: (error: Error) => void): Promise<void> {
    const running = Promise.resolve()
      .then(task)
      .then(
        () => undefined,
        (error: unknown) => {
          onError(this.#explain(error));
        },
      )
      // A throwing error handler must not become an unhandled rejection: that would stop Node-RED.
      .catch(() => undefined)
      .finally(() => this.#running.delete(running));
    this.#running.add(running);
    return running;
  }

  /** For close handlers: lets running work finish for up to `graceMs`, then aborts it. Never rejects. */
  async close(graceMs = CLOSE_GRACE_MS): Promise<void> {
    this.#closing = true;
    if (this.#running.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.all(this.#running), grace]);
      clearTimeout(timer);
    }
    this.#controller.abort(sayingError(AbortedError, 'error.stoppedByDeploy'));
    await Promise.all(this.#running);
  }

  #explain(error: unknown): Error {
    if (this.#closing && error instanceof AbortedError) {
      return sayingError(AbortedError, 'error.stoppedMidwayBecause', { reason: sayError(error) });
    }
    if (error instanceof Error) return error;
    return new Error(`stagelink: ${String(error)}`);
  }
}

export type InputHandler = (msg: NodeMessage, context: InputContext) => Promise<void> | void;

/**
 * Registers the input and close handlers of a node whose work is `handler`. `onClose` releases what the node
 * added besides (timers, subscriptions); it runs before the running work is waited for.
 */
export function handleInput(
  node: Node<never>,
  status: StatusLine,
  handler: InputHandler,
  onClose?: () => Promise<void> | void,
): NodeWork {
  const work = new NodeWork();
  node.on('input', (msg: NodeMessage, send: SendFunction, done: DoneFunction) => {
    void work.track(
      async () => {
        const timeoutMs = timeoutOf(msg);
        const call: CallOptions = timeoutMs === undefined ? { signal: work.signal } : { signal: work.signal, timeoutMs };
        await handler(msg, { send, signal: work.signal, call });
        done();
      },
      (error) => {
        status.failed(error);
        reportFailure(node, done, error, msg);
      },
    );
  });
  closeWithDeploy(node, status, work, onClose);
  return work;
}

/**
 * On close (a deploy, a shutdown): `stop` releases what starts new work (timers, subscriptions), then the running
 * work finishes or is aborted, then the status line is cleared and the deploy let go on, whatever failed before.
 */
export function closeWithDeploy(node: Node<never>, status: StatusLine, work: NodeWork, stop?: () => Promise<void> | void): void {
  node.on('close', (_removed: boolean, done: () => void) => {
    void (async () => {
      try {
        await stop?.();
        await work.close();
      } catch (error) {
        node.warn(say('log.closingNodeFailed', { reason: sayError(error) }));
      } finally {
        // The deploy waits for done: it is called whatever clearing the status line does.
        try {
          status.close();
        } finally {
          done();
        }
      }
    })().catch(() => undefined);
  });
}

/** Names of Object.prototype's members: a msg's own key of one of these names shadows what Node-RED calls. */
const OBJECT_MEMBERS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Hands a failure to Catch nodes with its msg. Node-RED cannot route an error whose msg has an own key that
 * shadows Object.prototype (an own `hasOwnProperty`, or an own `__proto__` that its clone turns into the
 * prototype): routing throws and the failure would be lost without a trace, and its clone may already have
 * taken `req` and `res` off the msg. Then Catch nodes get a copy of the msg, taken before routing touched it,
 * without those keys; if even that fails, the log gets the error.
 */
export function reportFailure(node: Node<never>, done: DoneFunction, error: Error, msg: NodeMessage): void {
  const routable = withoutShadowingKeys(msg);
  const worded = inRuntimeLanguage(error);
  try {
    done(worded);
    return;
  } catch {
    // Routing failed on the msg's own keys: try again with the copy.
  }
  try {
    node.error(worded, routable);
  } catch {
    node.error(worded);
  }
}

/** A shallow copy of `msg` without own keys named like Object.prototype's members (`__proto__` included). */
export function withoutShadowingKeys(msg: NodeMessage): NodeMessage {
  const copy: NodeMessage = {};
  for (const key of Object.keys(msg)) {
    if (OBJECT_MEMBERS.has(key)) continue;
    try {
      copy[key] = msg[key];
    } catch {
      // A getter that throws: the copy goes without that key.
    }
  }
  return copy;
}
