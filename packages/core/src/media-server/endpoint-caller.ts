import type { DirectorFollower } from '../discovery/director-follower.js';
import {
  AbortedError,
  AuthError,
  ConfirmationRequiredError,
  ConflictError,
  ConnectionError,
  TimeoutError,
  HttpError,
  NotFoundError,
  NotEnabledError,
  NotOfferedError,
  StatusError,
  UnexpectedAnswerError,
  type RequestContext,
} from '../errors.js';
import { CallBudget, type Interruption } from '../http/call-budget.js';
import type { HttpClient, HttpResponse, QueryValue } from '../http/http-client.js';
import { pathSegment } from '../http/path-segment.js';
import type { RequestOptions } from '../http/request-options.js';
import type { EndpointSpec } from './catalogue.js';
import type { DescribedCommands } from './described-commands.js';
import type { LinkWatch } from './link-watch.js';
import type { TransportMemory } from './transport-memory.js';
import type { Envelope } from './types.js';

export interface CallOptions extends RequestOptions {
  /**
   * While the server is known not to answer, ask it once, briefly, and refuse without sending when it still does
   * not (see LinkWatch): what cues want, since a cue that lands late is worse than one that fails. Transport
   * commands default to it.
   */
  failFast?: boolean;
}

export interface GuardedCallOptions extends CallOptions {
  /** Must be `true`: the operation is irreversible or cuts power without a shutdown. */
  confirm?: boolean;
}

export interface EndpointInput {
  body?: unknown;
  query?: Record<string, QueryValue>;
  /** Values for the `{name}` placeholders of the path. */
  params?: Record<string, string>;
}

/** What a call asks of the director follower: the first check, a check now, and where the director is. */
export type DirectorCheck = Pick<DirectorFollower, 'ready' | 'check' | 'current'>;

/**
 * Sends one catalogue endpoint and turns the answer into its result or a typed error. With a director
 * follower, a request the old director refused or never received goes once more to the new director, all within
 * the call's one deadline and until its caller aborts.
 */
export class EndpointCaller {
  constructor(
    private readonly http: HttpClient,
    private readonly director?: DirectorCheck,
    private readonly link?: LinkWatch,
    private readonly transports?: TransportMemory,
    private readonly described?: Pick<DescribedCommands, 'refusal'>,
    private readonly allowPython = false,
  ) {}

  call<T>(spec: EndpointSpec, input: EndpointInput = {}, options: GuardedCallOptions = {}): Promise<T> {
    // From a description already read only: never waits for one, so a cue is not held.
    const notDescribed = this.described?.refusal(spec);
    if (notDescribed) return Promise.reject(notDescribed);
    if (spec.runsCode && !this.allowPython) {
      return Promise.reject(
        new NotEnabledError(`${spec.method} ${spec.path} (${spec.summary}) was not sent: it runs code on the director, unauthenticated, and is off. Create the client with { allowPython: true } to enable it.`),
      );
    }
    // The usual cue: one request, under its own deadline, with nothing to confirm or wait for before it; not
    // through the async steps below, as one step less per cue.
    if (!spec.guarded && !this.director && !this.#downLinkFor(options)) return this.#send(spec, input, options);
    return this.#callInSteps(spec, input, options);
  }

  async #callInSteps<T>(spec: EndpointSpec, input: EndpointInput, options: GuardedCallOptions): Promise<T> {
    if (spec.guarded && options.confirm !== true) {
      throw new ConfirmationRequiredError(
        `${spec.method} ${spec.path} (${spec.summary}) was not sent: call it with { confirm: true } to confirm.`,
      );
    }
    const downLink = this.#downLinkFor(options);
    if (!this.director && !downLink) return this.#send(spec, input, options);
    // One deadline for all of it: the question to a server known down, finding the director, the request, asking
    // where the director went, a resend.
    const timeoutMs = options.timeoutMs ?? this.http.timeoutMs;
    const budget = new CallBudget(timeoutMs, options.signal);
    const context = () => ({ method: spec.method, url: this.http.baseUrl + fillPath(spec.path, input.params ?? {}) });
    // Before following the director: a cue refused here was never sent, and must be refused at once, not after
    // asking the session where its director went (the follower keeps checking that on its own).
    if (downLink) sentUnlessInterrupted(await budget.within(downLink.clearForCue(context())), context(), timeoutMs, 'link');
    if (!this.director) return this.#send(spec, input, { ...options, timeoutMs: budget.remainingMs });
    sentUnlessInterrupted(await budget.within(this.director.ready()), context(), timeoutMs, 'director');
    // Where this request goes: the follower's periodic check may move the session while it is on its way.
    const sentTo = this.director.current;
    try {
      return await this.#send<T>(spec, input, { ...options, timeoutMs: budget.remainingMs });
    } catch (error) {
      if (!(await this.#directorMoved(spec, error, sentTo, budget, context()))) throw error;
      return this.#send(spec, input, { ...options, timeoutMs: budget.remainingMs });
    }
  }

  /** The link watch, when this call must first ask a server known down whether it answers again. */
  #downLinkFor(options: CallOptions): LinkWatch | undefined {
    return options.failFast && this.link?.down ? this.link : undefined;
  }

  /**
   * True when the director is now another machine than `sentTo`, where the failed request went, and the request is
   * safe to send to the new one, with time left to send it. Whichever check saw the move (this call's, or the
   * follower's own while the request was on its way) counts. Asking the session where its director went counts
   * against the call's deadline.
   */
  async #directorMoved(spec: EndpointSpec, error: unknown, sentTo: string, budget: CallBudget, context: RequestContext): Promise<boolean> {
    const refusedBySession = error instanceof StatusError && spec.family === 'session';
    const unreachable = error instanceof ConnectionError || error instanceof TimeoutError;
    if (!this.director || !(refusedBySession || unreachable)) return false;
    const checked = await budget.within(this.director.check());
    if ('interrupted' in checked) {
      if (checked.interrupted === 'aborted') throw abortedWhileFinding(context, error);
      return false;
    }
    const neverActedOn = refusedBySession || spec.method === 'GET' || (error instanceof ConnectionError && !error.mayHaveReachedServer);
    return this.director.current !== sentTo && neverActedOn && budget.remainingMs > 0;
  }

  async #send<T>(spec: EndpointSpec, input: EndpointInput, options: GuardedCallOptions): Promise<T> {
    const path = fillPath(spec.path, input.params ?? {});
    // Any session command may move a transport: what this client read of them before no longer tells their state.
    const settled = spec.family === 'session' && spec.method !== 'GET' ? this.transports?.moving() : undefined;
    let response: HttpResponse;
    try {
      response = await this.http.request({
        method: spec.method,
        path,
        query: input.query,
        body: input.body,
        signal: options.signal,
        timeoutMs: options.timeoutMs,
      });
    } catch (error) {
      this.link?.observe(error);
      throw error;
    } finally {
      settled?.();
    }
    this.link?.observe(undefined);
    return resultOf<T>(spec, response);
  }
}

/** What a call waits for before its request goes, and what its caller can do when the deadline passes first. */
const STEPS_BEFORE_SENDING = {
  link: {
    waiting: 'the server, which had stopped answering, had not answered the one question asked before a cue',
    advice: 'Send it again once the server answers.',
  },
  director: {
    waiting: 'the director of the session was still being looked for',
    advice: "Check that the session's machines answer, or raise timeoutMs.",
  },
} as const;

/** Throws, the request unsent, when the call stopped waiting for a step before sending. */
function sentUnlessInterrupted(outcome: { interrupted: Interruption } | object, context: RequestContext, timeoutMs: number, step: keyof typeof STEPS_BEFORE_SENDING): void {
  if (!('interrupted' in outcome)) return;
  if (outcome.interrupted === 'aborted') throw new AbortedError(`${context.method} ${context.url} was aborted by the caller before it was sent.`, context, { mayHaveReachedServer: false });
  const { waiting, advice } = STEPS_BEFORE_SENDING[step];
  throw new TimeoutError(`${context.method} ${context.url} was not sent: ${waiting} when its deadline of ${timeoutMs} ms passed. ${advice}`, timeoutMs, context, {
    mayHaveReachedServer: false,
  });
}

/** Aborted between a failed first try and a second: it left only if that first try may have. */
function abortedWhileFinding(context: RequestContext, firstTry: unknown): AbortedError {
  const neverLeft = firstTry instanceof ConnectionError && !firstTry.mayHaveReachedServer;
  return new AbortedError(`${context.method} ${context.url} was aborted by the caller while the director of the session was being looked for; it was not sent again.`, context, {
    mayHaveReachedServer: !neverLeft,
  });
}

function fillPath(path: string, params: Record<string, string>): string {
  if (!path.includes('{')) return path;
  return path.replace(/\{(\w+)\}/g, (_, name: string) => pathSegment(name, params[name]));
}

function resultOf<T>(spec: EndpointSpec, { status, body, context }: HttpResponse): T {
  if (status < 200 || status >= 300) throw httpErrorFor(spec, status, body, context);
  if (spec.family !== 'hardware') {
    const envelope = envelopeOf(body);
    if (!envelope) throw notTheApi(status, body, context);
    if (envelope.code !== 0) {
      const reason = refusalReason(envelope);
      throw new StatusError(
        `${context.method} ${context.url} was refused by the server: ${reason ?? 'no reason given'} (status code ${envelope.code}).`,
        envelope.code,
        Array.isArray(envelope.details) ? envelope.details : [],
        context,
        reason,
      );
    }
  }
  const result = spec.returns === 'body' ? body : (body as Record<string, unknown> | undefined)?.[spec.returns];
  const problem = spec.answer?.(result, spec.returns === 'body' ? '' : spec.returns);
  if (problem) throw notInShape(problem, context);
  return (spec.words ? spec.words(result) : result) as T;
}

/**
 * The server's own words for a refusal: `status.message`, or, when that is empty (as shipping directors leave
 * it), each detail's `message`, then its `value`.
 */
function refusalReason(envelope: Envelope['status']): string | undefined {
  const words = [envelope.message, ...(Array.isArray(envelope.details) ? envelope.details : []).flatMap(detailWords)];
  const reasons = words.filter((word): word is string => typeof word === 'string' && word.trim() !== '');
  return reasons.length > 0 ? [...new Set(reasons)].join('; ') : undefined;
}

function detailWords(detail: unknown): unknown[] {
  if (typeof detail === 'string') return [detail];
  const { message, value } = (detail ?? {}) as { message?: unknown; value?: unknown };
  return [typeof message === 'string' && message !== '' ? message : value];
}

/** The `status` envelope every session and service answer carries (docs/api-notes.md, "Envelope and errors"); undefined when there is none. */
function envelopeOf(body: unknown): Envelope['status'] | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const envelope = (body as Partial<Envelope>).status as unknown;
  if (typeof envelope !== 'object' || envelope === null || typeof (envelope as { code?: unknown }).code !== 'number') return undefined;
  return envelope as Envelope['status'];
}

/**
 * A 2xx answer without the envelope is not the media-server API speaking (a proxy, a captive portal, another
 * service on that port, a cut-off answer): its fields cannot be trusted, so it is an error, not a result.
 */
function notTheApi(status: number, body: unknown, context: RequestContext): UnexpectedAnswerError {
  return new UnexpectedAnswerError(
    `${context.method} ${context.url} answered ${status} with ${bodyKind(body)} instead of the API's JSON envelope: check that this address is the media server's API (another service, a proxy or a cut-off answer may be answering).`,
    context,
  );
}

/** An answer with the envelope whose result lacks what its type promises: a front end would read undefined. */
function notInShape(problem: string, context: RequestContext): UnexpectedAnswerError {
  return new UnexpectedAnswerError(
    `${context.method} ${context.url} answered, but not in the shape the API specifies: ${problem}. Check that this address is a media server of a supported version.`,
    context,
  );
}

function bodyKind(body: unknown): string {
  if (body === undefined) return 'no body';
  if (typeof body === 'string') return `text that is not JSON ("${body.slice(0, 40)}${body.length > 40 ? '…' : ''}")`;
  if (body === null) return 'JSON null';
  if (Array.isArray(body)) return 'a JSON list';
  if (typeof body === 'object') return 'a JSON object without a valid status';
  return `JSON ${typeof body} ${JSON.stringify(body).slice(0, 40)}`;
}

function httpErrorFor(spec: EndpointSpec, status: number, body: unknown, context: RequestContext): HttpError {
  const where = `${context.method} ${context.url}`;
  const detail = describeBody(body);
  if (status === 401 || status === 403) {
    const advice =
      spec.family === 'hardware'
        ? "login required: give the machine's SMC account (username and password) and send it again; if one is given, check it"
        : 'access refused: check the permissions of this machine';
    return new AuthError(`${where} answered ${status}, ${advice}.${detail}`, status, body, context);
  }
  if ((status === 404 || status === 405) && spec.family !== 'hardware') {
    return new NotOfferedError(
      `${where} answered ${status}: this build of the media server does not offer ${spec.group}.${spec.operation} (${spec.summary.toLowerCase()}). Check the server's version; sending it again will not help.${detail}`,
      status,
      body,
      context,
    );
  }
  if (status === 404) return new NotFoundError(`${where} answered 404 not found.${detail}`, status, body, context);
  if (status === 409) return new ConflictError(`${where} answered 409 conflict.${detail}`, status, body, context);
  if (status === 400) {
    return new HttpError(`${where} answered 400: the server could not use the request body.${detail}`, status, body, context);
  }
  return new HttpError(`${where} answered ${status}.${detail}`, status, body, context);
}

function describeBody(body: unknown): string {
  if (body === undefined || body === '') return '';
  const text = typeof body === 'string' ? body : (serverMessage(body) ?? bodyText(body));
  return text ? ` Server says: ${text.slice(0, 300)}` : '';
}

/** A body as JSON text for a message; one too deeply nested to stringify must not replace the error with a RangeError. */
function bodyText(body: unknown): string {
  try {
    return JSON.stringify(body) ?? '';
  } catch {
    return '(an answer too large or too deeply nested to show)';
  }
}

/** The message of a hardware body `{message}` or the reason of an envelope. */
function serverMessage(body: unknown): string | undefined {
  const shaped = body as { message?: unknown } | null;
  if (typeof shaped?.message === 'string') return shaped.message;
  const envelope = envelopeOf(body);
  return envelope && refusalReason(envelope);
}
