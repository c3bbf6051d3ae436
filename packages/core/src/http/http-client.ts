import { Agent, type Dispatcher } from 'undici';
import { ClosedError, ConnectionError, reasonOf, type RequestContext, StagelinkError, UnexpectedAnswerError } from '../errors.js';
import { fullJitter, sleep } from './backoff.js';
import { CallDeadline, DeadlineTimer } from './call-deadline.js';
import type { TlsOptions } from './tls.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | undefined;

export interface HttpClientOptions {
  /** Origin plus an optional path prefix, e.g. `http://10.0.0.5:80` or `https://drive.example/api`. */
  baseUrl: string;
  /** Deadline of one call, all retries included. */
  timeoutMs?: number;
  /** How many times a retryable failure is tried again. */
  retries?: number;
  /** Sent with every request. Never copied into errors or logs (they may hold a token). */
  headers?: Record<string, string>;
  /** How to trust an `https://` server. */
  tls?: TlsOptions;
}

export interface RequestOptions {
  method: Method;
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Overrides the method's default (GET and DELETE are idempotent): `false` retries only what was never sent. */
  idempotent?: boolean;
}

export interface HttpResponse {
  status: number;
  body: unknown;
  context: RequestContext;
}

export const DEFAULT_TIMEOUT_MS = 5000;
export const DEFAULT_RETRIES = 2;
const BACKOFF_BASE_MS = 100;
const BACKOFF_CAP_MS = 2000;

/** Failures where the request provably never reached the server, so even a POST may be sent again. */
const NEVER_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Failures that may have happened after the server got the request: only idempotent calls retry them. */
const CONNECTION_CODES = new Set([...NEVER_SENT_CODES, 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

const IDEMPOTENT_METHODS = new Set<Method>(['GET', 'DELETE']);

/**
 * One keep-alive connection pool per origin (undici's Agent keeps a Pool per origin), a deadline per call, and
 * jittered retries: idempotent requests on connection errors and 5xx, others only when nothing was sent.
 * 4xx is never retried. Answers any HTTP status; callers map statuses to errors.
 */
export class HttpClient {
  readonly #agent: Agent;
  readonly #headers: Record<string, string>;
  readonly #bodyHeaders: Record<string, string>;
  readonly #timeoutMs: number;
  readonly #retries: number;
  readonly #deadlines = new DeadlineTimer();
  #closing: Promise<void> | undefined;
  #baseUrl: string;
  /** `#baseUrl` parsed, once per address rather than once per request; undefined until the next request needs it. */
  #base: { origin: string; pathPrefix: string } | undefined;

  constructor(options: HttpClientOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#agent = new Agent({ keepAliveTimeout: 4000, connections: 16, ...(options.tls ? { connect: options.tls } : {}) });
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#retries = options.retries ?? DEFAULT_RETRIES;
    this.#headers = { accept: 'application/json', ...options.headers };
    this.#bodyHeaders = { ...this.#headers, 'content-type': 'application/json' };
  }

  /** Where requests go: origin plus an optional path prefix. Set when the server to talk to moves. */
  get baseUrl(): string {
    return this.#baseUrl;
  }

  set baseUrl(url: string) {
    this.#baseUrl = url;
    this.#base = undefined;
  }

  /** Not async, as one step less per request: every way it fails is a rejection of the promise it answers. */
  request(options: RequestOptions): Promise<HttpResponse> {
    const context: RequestContext = { method: options.method, url: this.baseUrl + options.path };
    if (this.#closing) return refusedAsClosed(context);
    return this.#withRetries(options, context, new CallDeadline(context, options.timeoutMs ?? this.#timeoutMs, options.signal, this.#deadlines));
  }

  /** The deadline of a call that gives none of its own. */
  get timeoutMs(): number {
    return this.#timeoutMs;
  }

  /** Closes the pool. Safe to call more than once: undici's Agent throws on a second close. */
  close(): Promise<void> {
    this.#deadlines.stop();
    this.#closing ??= this.#agent.close();
    return this.#closing;
  }

  /** The call's attempts under its one deadline, which is cleared however the call ends. */
  async #withRetries(options: RequestOptions, context: RequestContext, deadline: CallDeadline): Promise<HttpResponse> {
    const idempotent = options.idempotent ?? IDEMPOTENT_METHODS.has(options.method);
    try {
      for (let attempt = 0; ; attempt++) {
        const canRetry = attempt < this.#retries;
        try {
          const response = await this.#send(options, context, deadline);
          if (!(idempotent && canRetry && response.status >= 500)) return response;
        } catch (error) {
          if (deadline.reason) throw deadline.reason;
          const code = errorCode(error);
          const retryable = idempotent ? CONNECTION_CODES.has(code) : NEVER_SENT_CODES.has(code);
          if (!(retryable && canRetry)) throw connectionError(error, code, context);
        }
        await sleep(fullJitter(attempt, BACKOFF_BASE_MS, BACKOFF_CAP_MS), deadline);
      }
    } finally {
      deadline.clear();
    }
  }

  async #send(options: RequestOptions, context: RequestContext, deadline: CallDeadline): Promise<HttpResponse> {
    const base = (this.#base ??= parsedBase(this.#baseUrl));
    const hasBody = options.body !== undefined;
    const response = await this.#agent.request({
      origin: base.origin,
      // Joined as text: parsing it as a URL would remove `..` and `%2E%2E` segments that are encoded ids.
      path: base.pathPrefix + options.path + searchOf(options.query),
      method: options.method,
      // undici only reads the headers it is given, so every request may share one object.
      headers: hasBody ? this.#bodyHeaders : this.#headers,
      body: hasBody ? JSON.stringify(options.body) : null,
      signal: deadline,
    });
    deadline.receiving = true;
    try {
      const text = await boundedText(response, context);
      return { status: response.statusCode, body: parseBody(text), context };
    } finally {
      deadline.receiving = false;
    }
  }
}

/**
 * Far more than any answer of a media server or the drive: a proxy or another service streaming more at the address
 * would fill the memory of the process the client runs in (Node-RED, the Stream Deck app).
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** The answer's body as text, refused unread past MAX_ANSWER_BYTES. */
async function boundedText(response: Dispatcher.ResponseData, context: RequestContext): Promise<string> {
  const declared = Number(response.headers['content-length']);
  if (declared > MAX_ANSWER_BYTES) return refuseTooLarge(response, context, `declares ${declared} bytes`);
  // A declared length is held to by undici: only an answer without one is counted as it comes.
  if (Number.isFinite(declared)) return response.body.text();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) return refuseTooLarge(response, context, `went past ${MAX_ANSWER_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function refuseTooLarge(response: Dispatcher.ResponseData, context: RequestContext, what: string): never {
  response.body.destroy();
  throw new UnexpectedAnswerError(
    `${context.method} ${context.url} answered with a body that ${what}, more than any answer of the API: check that this address is the server's API (another service or a proxy may be answering).`,
    context,
  );
}

/** A request after close, refused: what goes wrong building the error rejects too, as every failure of a request does. */
function refusedAsClosed(context: RequestContext): Promise<never> {
  return new Promise(() => {
    throw new ClosedError(`${context.method} ${context.url} was not sent: this client was closed. Create a new one to reach ${new URL(context.url).host} again.`, context);
  });
}

function parsedBase(baseUrl: string): { origin: string; pathPrefix: string } {
  const base = new URL(baseUrl);
  return { origin: base.origin, pathPrefix: base.pathname.replace(/\/$/, '') };
}

/** `?name=value&...` of the query's defined values; empty when there are none. */
function searchOf(query: Record<string, QueryValue> | undefined): string {
  if (query === undefined) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) search.set(key, String(value));
  }
  return search.size > 0 ? `?${search.toString()}` : '';
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/** Node's TLS codes for a certificate that does not check out: the server answered, but is not trusted. */
const CERTIFICATE_CODES = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/;

function connectionError(error: unknown, code: string, context: RequestContext): StagelinkError {
  if (error instanceof StagelinkError) return error;
  const reason = code || reasonOf(error);
  const advice = CERTIFICATE_CODES.test(code)
    ? 'its certificate is not trusted here: give the client the certificate authority that signed it (tls.ca), or the certificate itself when it is self-signed.'
    : 'check the address and that the server is running.';
  return new ConnectionError(
    `Could not reach ${new URL(context.url).host} for ${context.method} ${context.url} (${reason}): ${advice}`,
    context,
    { cause: error, mayHaveReachedServer: !NEVER_SENT_CODES.has(code) },
  );
}
