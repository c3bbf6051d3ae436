import { setTimeout as delay } from 'node:timers/promises';
import { reasonOf, type ApiFamily } from '@stagelink/core';
import { API_DESCRIPTION_PATH } from '@stagelink/core/protocol';
import type { RequestArrivals } from './arrivals.js';
import { CONTROL_PATH, type ControlPanel } from './control.js';
import type { Faults } from './faults.js';
import { BadRequest, LoginRequired } from './http-errors.js';
import type { IncomingJson, JsonHandler } from './http-server.js';
import type { LogSink } from './log.js';
import { apiDescription } from './api-description.js';
import { EndpointRouter, familyOfPath, type CatalogueEndpoint, type RouteMatch } from './router.js';
import type { DialectWords } from './state/dialect.js';
import { answered, failureAnswer, plainText } from './routes/answers.js';
import { routeHandlers } from './routes/index.js';
import type { Answer, SimRequest } from './routes/route.js';
import { Refusal, StatusCode } from './state/refusal.js';
import type { SessionState } from './state/session-state.js';

export interface MediaServerAppOptions {
  state(): SessionState;
  faults: Faults;
  control: ControlPanel;
  log: LogSink;
  /** Counts every request but the control ones as it arrives. */
  arrivals: RequestArrivals;
  /** Aborted when the simulator closes, so no request waits out its latency. */
  signal: AbortSignal;
  /** Refuses what this machine does not serve (a machine that is not the director); undefined serves it. */
  refuse?(endpoint: CatalogueEndpoint): Answer | undefined;
  /** Default `all`. */
  serves?: Served;
  /** The management controller's account, on a `hardware` listener: writes need it as HTTP Basic. */
  account?: SmcAccount;
  /** The hostname of the machine this listener is (or is the management controller of); the director's when absent. */
  machine?: string;
}

export interface SmcAccount {
  username: string;
  password: string;
}

/**
 * The media server's request pipeline: control requests first (no faults apply to them), then latency,
 * failNext, routing by the catalogue, and the answer in the shape of the endpoint's family, answered late
 * (`slowAnswer`) or stalled part way through its body (`stallBody`) when those faults name the request.
 */
export function createMediaServerApp(options: MediaServerAppOptions): JsonHandler {
  const router = new EndpointRouter();
  return async (request) => {
    const path = request.url.pathname;
    if (path === CONTROL_PATH) return control(request, options);
    const machine = options.machine ?? options.state().machines.local.hostname;
    options.arrivals.note(request.method, path, machine);
    // A management controller that has gone silent hears the request and never answers it (`smcSilent`).
    const hardware = options.state().hardware;
    if (options.serves !== 'session' && familyOfPath(path) === 'hardware' && hardware.isSilent(machine)) await hardware.heard(machine);
    if (options.signal.aborted) return { status: 503, body: { message: 'The simulator is closing.' } };
    const wait = options.faults.nextDelayMs();
    if (wait > 0) await delay(wait, undefined, { signal: options.signal });
    const answer = serve(request, router, options, machine);
    // The request has taken effect: only its answer is late (slowAnswer) or stops part way (stallBody).
    const late = options.faults.slowAnswers.delayMs(request.method, path, familyOfPath(path));
    if (late > 0) await delay(late, undefined, { signal: options.signal });
    const stall = options.faults.stalledAnswers.stallFor(path);
    return stall ? { ...answer, stall } : answer;
  };
}

/** Routes a request by the catalogue and answers it in the shape of the endpoint's family. */
function serve(request: IncomingJson, router: EndpointRouter, options: MediaServerAppOptions, machine: string): Answer {
  const path = request.url.pathname;
  const words = options.state().words;
  if (path === API_DESCRIPTION_PATH && options.serves !== 'hardware') return apiDescription(words, options.state().laterCommands.list());
  const later = options.serves === 'hardware' ? undefined : options.state().laterCommands.find(request.method, path);
  if (later) return laterAnswer(request.text, words);
  const match = offered(router.match(request.method, path), words, options.serves ?? 'all');
  const failure = options.faults.takeFailure();
  const family = match.kind === 'endpoint' ? match.endpoint.family : match.family;
  if (failure !== undefined) {
    return failureAnswer(family, failure, StatusCode.internal, `Failure injected by ${CONTROL_PATH} failNext: answering ${failure}.`, words);
  }
  if (match.kind === 'unknown') return notOfferedAnswer(family, 404, `No such endpoint: ${request.method} ${path}.`, words);
  if (match.kind === 'wrong-method') {
    const allowed = match.allowed.join(', ');
    const answer = notOfferedAnswer(family, 405, `${request.method} ${path} is not allowed: use ${allowed}.`, words);
    return { ...answer, headers: { ...answer.headers, allow: allowed } };
  }
  const refusal = options.refuse?.(match.endpoint);
  if (refusal) return refusal;
  const authorized = options.account ? carriesAccount(request.authorization, options.account) && !options.state().hardware.accountsErased : undefined;
  return dispatch(match.endpoint, { params: match.params, query: request.url.searchParams, body: jsonOnFirstUse(request.text), authorized, machine }, options);
}

async function control(request: IncomingJson, options: MediaServerAppOptions): Promise<Answer> {
  if (request.method !== 'POST') {
    return { status: 405, body: { message: `${CONTROL_PATH} takes POST with {"action": ...}.` }, headers: { allow: 'POST' } };
  }
  const answer = await options.control.handle(() => parseJson(request.text));
  options.log({ event: 'control', request: request.text.slice(0, 200), status: answer.status });
  return answer;
}

function dispatch(endpoint: CatalogueEndpoint, request: SimRequest, options: MediaServerAppOptions): Answer {
  try {
    return routeHandlers[endpoint.id](request, options.state());
  } catch (error) {
    return answerForError(error, endpoint.family, options.log, options.state().words);
  }
}

/**
 * Session and service: a refusal is HTTP 200 with its non-zero `status.code`; a request of the wrong shape is
 * HTTP 400 with the envelope (code 3). Hardware: 401, 400 and 404 with `{message}`.
 */
function answerForError(error: unknown, family: ApiFamily, log: LogSink, words: DialectWords): Answer {
  if (error instanceof LoginRequired) return failureAnswer(family, 401, StatusCode.failedPrecondition, words.loginRequired, words);
  if (error instanceof BadRequest) return failureAnswer(family, 400, StatusCode.invalidArgument, error.message, words);
  if (error instanceof Refusal) {
    if (family !== 'hardware') return failureAnswer(family, 200, error.code, error.message, words);
    return failureAnswer(family, error.code === StatusCode.notFound ? 404 : 400, error.code, error.message, words);
  }
  log({ event: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  const message = `Internal simulator error: ${reasonOf(error)}`;
  return failureAnswer(family, 500, StatusCode.internal, message, words);
}

/**
 * What this listener serves: everything (the documents' single address), the session and service families (a
 * shipping machine's API address) or the hardware family (its management controller). An endpoint this build
 * or listener lacks is answered as an unknown path.
 */
export type Served = 'all' | 'session' | 'hardware';

function offered(match: RouteMatch, words: DialectWords, serves: Served): RouteMatch {
  if (match.kind !== 'endpoint') return match;
  const here = serves === 'all' || (serves === 'hardware') === (match.endpoint.family === 'hardware');
  return here && words.offers(match.endpoint) ? match : { kind: 'unknown', family: match.endpoint.family };
}

/** A path this listener has no route for: session and service paths in the dialect's words, others `{message}`. */
function notOfferedAnswer(family: ApiFamily | undefined, status: 404 | 405, message: string, words: DialectWords): Answer {
  if (family !== 'session' && family !== 'service') return failureAnswer(family, status, StatusCode.notFound, message, words);
  const body = words.notOffered(status, message);
  return typeof body === 'string' ? plainText(status, body) : { status, body };
}

function carriesAccount(authorization: string | undefined, account: SmcAccount): boolean {
  const encoded = /^Basic\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  return encoded !== undefined && Buffer.from(encoded, 'base64').toString('utf8') === `${account.username}:${account.password}`;
}

/** A later build's command takes the body it was given, and says so. */
function laterAnswer(text: string, words: DialectWords): Answer {
  try {
    return answered({ result: { received: text === '' ? null : (JSON.parse(text) as unknown) } });
  } catch {
    return failureAnswer('session', 400, StatusCode.invalidArgument, 'The body is not JSON.', words);
  }
}

function jsonOnFirstUse(text: string): () => unknown {
  let parsed: { value: unknown } | undefined;
  return () => (parsed ??= { value: parseJson(text) }).value;
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new BadRequest(`The request body is not valid JSON (${reasonOf(error)}).`);
  }
}
