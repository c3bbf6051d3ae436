/**
 * The error tree. Every error stagelink throws is a StagelinkError; its message says what failed and what to
 * do about it. Request errors carry `method`, `url` and `host` so a flow or a key can say which machine failed.
 */

export interface RequestContext {
  method: string;
  /** Origin and path, never the query string or headers (they may carry secrets). */
  url: string;
}

export class StagelinkError extends Error {
  override name = 'StagelinkError';
  /** Stable across versions and translations, as undici's `UND_ERR_*`: what code that reacts to an error switches on. */
  readonly code: string = 'STAGELINK_ERR';
  readonly method?: string;
  readonly url?: string;

  constructor(message: string, context?: RequestContext, options?: { cause?: unknown }) {
    super(message, options);
    if (context) {
      this.method = context.method;
      this.url = context.url;
    }
  }
}

/**
 * One kind of error in the tree: its parent, its `name` and its stable `code`. Set as fields rather than read
 * from the class name, which a minified bundle (the Stream Deck plugin) renames.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a mixin's base constructor takes any arguments
function kind<Parent extends abstract new (...args: any[]) => StagelinkError>(parent: Parent, name: string, code: string) {
  abstract class Kind extends parent {
    override name = name;
    override readonly code: string = code;
  }
  return Kind;
}

/** The server answered with an HTTP status outside 2xx. */
export class HttpError extends kind(StagelinkError, 'HttpError', 'STAGELINK_ERR_HTTP') {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
    context?: RequestContext,
  ) {
    super(message, context);
  }
}

export class NotFoundError extends kind(HttpError, 'NotFoundError', 'STAGELINK_ERR_NOT_FOUND') {}

/**
 * The machine answered 404 or 405 for a path of the session or service family: this build of the server does not
 * offer the command (older or newer than the API documents). Not a transient fault: never retried.
 */
export class NotOfferedError extends kind(NotFoundError, 'NotOfferedError', 'STAGELINK_ERR_NOT_OFFERED') {}

/** 401 or 403. On the hardware family this means a login is required on the machine. */
export class AuthError extends kind(HttpError, 'AuthError', 'STAGELINK_ERR_AUTH') {}

export class ConflictError extends kind(HttpError, 'ConflictError', 'STAGELINK_ERR_CONFLICT') {}

/** The session or service family answered with `status.code != 0` (kept as `statusCode`). */
export class StatusError extends kind(StagelinkError, 'StatusError', 'STAGELINK_ERR_REFUSED') {
  constructor(
    message: string,
    /** The envelope's `status.code`: 1000 or 4000 on shipping directors, for example. */
    readonly statusCode: number,
    readonly details: unknown[],
    context?: RequestContext,
    /** The refusal's reason in the server's own words, wherever the server put it; undefined when it gave none. */
    readonly reason?: string,
  ) {
    super(message, context);
  }
}

export class TimeoutError extends kind(StagelinkError, 'TimeoutError', 'STAGELINK_ERR_TIMEOUT') {
  /**
   * False when the deadline passed before the request was sent (the director still being looked for, the server's
   * one question before a cue unanswered): such a cue was refused unsent, never late.
   */
  readonly mayHaveReachedServer: boolean;

  constructor(
    message: string,
    readonly timeoutMs: number,
    context?: RequestContext,
    options?: { mayHaveReachedServer?: boolean },
  ) {
    super(message, context);
    this.mayHaveReachedServer = options?.mayHaveReachedServer ?? true;
  }
}

/**
 * The server sent an answer's headers, then the rest of it stopped arriving until the call's deadline: the machine
 * is up (small answers come through), but large answers do not, as on a show network whose MTU differs between
 * its two ends. Not a TimeoutError: the machine must not be shown as offline, and a TimeoutError means "nothing
 * came back". Code that caught every call that ran out of time by `STAGELINK_ERR_TIMEOUT` also matches
 * `STAGELINK_ERR_STALLED_ANSWER`.
 */
export class StalledAnswerError extends kind(StagelinkError, 'StalledAnswerError', 'STAGELINK_ERR_STALLED_ANSWER') {
  constructor(
    message: string,
    readonly timeoutMs: number,
    context?: RequestContext,
  ) {
    super(message, context);
  }
}

/** What a transport cue whose answer came late did, as far as one re-read of the transports can tell. */
export type LateOutcome = 'landed' | 'unknown';

/**
 * A transport cue whose answer did not come within its deadline, while the machine still answers. It was not sent
 * again (a cue that timed out may already have been carried out); the transports were read once more instead.
 * `outcome` is `landed` (code `STAGELINK_ERR_LATE_LANDED`) only when that read shows what the cue asked for and
 * the state before it did not; otherwise `unknown` (code `STAGELINK_ERR_LATE_UNKNOWN`). Not unreachable: the
 * machine answered the re-read.
 */
export class LateAnswerError extends StagelinkError {
  override name = 'LateAnswerError';
  override readonly code: string;

  constructor(
    message: string,
    readonly outcome: LateOutcome,
    /** The cue's deadline. */
    readonly timeoutMs: number,
    context?: RequestContext,
    options?: { cause?: unknown },
  ) {
    super(message, context, options);
    this.code = outcome === 'landed' ? 'STAGELINK_ERR_LATE_LANDED' : 'STAGELINK_ERR_LATE_UNKNOWN';
  }
}

/** The machine could not be reached (refused, reset, unknown host). */
export class ConnectionError extends kind(StagelinkError, 'ConnectionError', 'STAGELINK_ERR_CONNECTION') {
  /** False when the request provably never left (refused, unknown host): resending it cannot repeat a cue. */
  readonly mayHaveReachedServer: boolean;

  constructor(message: string, context?: RequestContext, options?: { cause?: unknown; mayHaveReachedServer?: boolean }) {
    super(message, context, options);
    this.mayHaveReachedServer = options?.mayHaveReachedServer ?? true;
  }
}

/**
 * True when nothing came back from the server: it could not be reached (refused, reset, unknown host) or did not
 * answer in time. A front end shows such a server as offline. Any other error is not a link problem: a server
 * that answered with an error is up, and input refused before sending never left.
 */
export function isUnreachable(error: unknown): error is ConnectionError | TimeoutError {
  return error instanceof ConnectionError || error instanceof TimeoutError;
}

/** The caller aborted the request through its AbortSignal. */
export class AbortedError extends kind(StagelinkError, 'AbortedError', 'STAGELINK_ERR_ABORTED') {
  /** False when the request was aborted before it left (a queued cue, a call still waiting for the director). */
  readonly mayHaveReachedServer: boolean;

  constructor(message: string, context?: RequestContext, options?: { mayHaveReachedServer?: boolean }) {
    super(message, context);
    this.mayHaveReachedServer = options?.mayHaveReachedServer ?? true;
  }
}

/** A guarded operation was called without `{ confirm: true }`; nothing was sent. */
export class ConfirmationRequiredError extends kind(StagelinkError, 'ConfirmationRequiredError', 'STAGELINK_ERR_CONFIRMATION_REQUIRED') {}

/**
 * The director's own description of its API, already read, lacks this command: refused before sending, since this
 * build would answer 404. Sending it again will not help; the build's version says which API it speaks.
 */
export class NotDescribedError extends kind(StagelinkError, 'NotDescribedError', 'STAGELINK_ERR_NOT_DESCRIBED') {}

/** A command this client was not set up to send (`python/*` without `allowPython: true`); nothing was sent. */
export class NotEnabledError extends kind(StagelinkError, 'NotEnabledError', 'STAGELINK_ERR_NOT_ENABLED') {}

/** The caller passed something the API cannot take (an empty Ref, a malformed host); nothing was sent. */
export class InvalidInputError extends kind(StagelinkError, 'InvalidInputError', 'STAGELINK_ERR_INVALID_INPUT') {}

/**
 * A hardware write (power, OLED, LED strip, whoami, any other POST of the hardware family) that names no machine;
 * nothing was sent. The hardware family acts on the machine whose management controller is called, so such a write
 * never goes to the session's address or to "whoever directs now": name the machine (`ms.hardwareOf(hostname)`,
 * `ms.hardwareOf({ host })` with its SMC's address, or the `machine` option of `ms.call`), or give the client `smc`.
 */
export class HardwareTargetError extends kind(InvalidInputError, 'HardwareTargetError', 'STAGELINK_ERR_HARDWARE_TARGET') {}

/**
 * The server answered, but not as the API specifies: no envelope, or fields a result promises are missing or
 * of the wrong kind (another service on that port, a proxy, an unsupported version). Nothing of it is used.
 */
export class UnexpectedAnswerError extends kind(StagelinkError, 'UnexpectedAnswerError', 'STAGELINK_ERR_UNEXPECTED_ANSWER') {}

/** The client was closed: create a new one. Nothing was sent. */
export class ClosedError extends kind(StagelinkError, 'ClosedError', 'STAGELINK_ERR_CLOSED') {}

/** Something went wrong on the live-update stream: a refused subscription, a property error, a bad frame. */
export class LiveUpdateError extends kind(StagelinkError, 'LiveUpdateError', 'STAGELINK_ERR_LIVE_UPDATE') {}

/**
 * The director answered the same live-update frame (a subscribe, an unsubscribe or a write) "Invalid JSON" time
 * after time: it lost it, or cannot read it, and says nothing of which. The frame is no longer sent; a subscription
 * is asked for again on the next reconnect or after a pause.
 */
export class LiveFrameRefusedError extends kind(LiveUpdateError, 'LiveFrameRefusedError', 'STAGELINK_ERR_LIVE_FRAME_REFUSED') {}

/** The message of anything thrown, for a log line or a wrapping error's text. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
