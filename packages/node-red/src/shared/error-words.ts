import { HttpError, LateAnswerError, StalledAnswerError, StagelinkError, StatusError, TimeoutError } from '@stagelink/core';
import { hasWords, say } from './words.js';

/**
 * A failure as catalog words: `errorText.<variant>` in the server node's catalog and the facts its words may use.
 * en-US words are core's own message (`__message__`), which says most; another language words each kind of
 * failure itself from the facts, so a German Node-RED says in German what failed, where, and what to do.
 */
export interface ErrorWords {
  key: string;
  values: Record<string, string>;
}

/** Errors whose message is the catalog's words already (see sayingError): handed on as they are. */
const inOwnWords = new WeakSet<Error>();

/**
 * An error of `Kind` (an InvalidInputError, say) whose message is `key`'s words in the runtime's language: one the
 * nodes raise themselves, which is never worded again as one of core's.
 */
export function sayingError<E extends Error>(Kind: new (message: string) => E, key: string, values: Record<string, string | number> = {}): E {
  const error = new Kind(say(key, values));
  inOwnWords.add(error);
  return error;
}

/** The facts a failure's words may name. Each is empty where the failure has none, so words read well without. */
function factsOf(error: StagelinkError): Record<string, string> {
  const { method, url } = error;
  const causeWords = systemWords(error.cause);
  const timeoutMs = error instanceof TimeoutError || error instanceof StalledAnswerError || error instanceof LateAnswerError ? error.timeoutMs : undefined;
  return {
    message: error.message,
    /** "GET http://…/api/…: ", the request the failure was about. */
    lead: method && url ? `${method} ${url}: ` : '',
    /** " (ECONNREFUSED)", what the system said. */
    because: causeWords === '' ? '' : ` (${causeWords})`,
    status: String(error instanceof HttpError ? error.status : error instanceof StatusError ? error.statusCode : ''),
    seconds: timeoutMs === undefined ? '' : String(Math.round(timeoutMs / 100) / 10),
    reason: error instanceof StatusError ? (error.reason ?? say('errorText.noReason')) : '',
  };
}

/**
 * What the system said of a failure core wraps (`ECONNREFUSED`, `ENOTFOUND`): the code or message of the first
 * cause in the chain that is not core's own (a refusal while the link is down names the failure that took it down).
 */
function systemWords(cause: unknown): string {
  for (let depth = 0; cause instanceof Error && depth < 5; depth++, cause = cause.cause) {
    if (cause instanceof StagelinkError) continue;
    const { code } = cause as { code?: unknown };
    return typeof code === 'string' ? code : cause.message;
  }
  return '';
}

/**
 * The catalog entry for `error`: its code's, or its code's `_UNSENT` one where the request provably never left
 * (a cue refused unsent reads differently from one that may have landed), or `other`.
 */
export function errorWords(error: unknown): ErrorWords {
  if (!(error instanceof StagelinkError) || inOwnWords.has(error)) return { key: 'errorText.other', values: { message: error instanceof Error ? error.message : String(error) } };
  return { key: wordsKeyOf('errorText', error) ?? 'errorText.other', values: factsOf(error) };
}

/**
 * The catalog key of core's `error` in `group`: `<group>.<code>_UNSENT` where the request provably never left and
 * the catalog words that case, else `<group>.<code>`; undefined where the catalog has no words for the code.
 */
export function wordsKeyOf(group: string, error: StagelinkError): string | undefined {
  const unsent = (error as { mayHaveReachedServer?: boolean }).mayHaveReachedServer === false;
  return [unsent ? `${group}.${error.code}_UNSENT` : undefined, `${group}.${error.code}`].find((key) => key !== undefined && hasWords(key));
}

/** A failure's text in the runtime's language. */
export function sayError(error: unknown): string {
  return sayWords(errorWords(error));
}

/** Failure words in the runtime's language; words that go on from the request start a sentence without it. */
export function sayWords({ key, values }: ErrorWords): string {
  const text = say(key, values);
  return values['lead'] === '' ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/**
 * `error` as Node-RED is handed it (to Catch nodes, the log and the debug sidebar): worded in the runtime's
 * language, with its class, `code` and fields unchanged and core's own message kept as its `cause`.
 */
export function inRuntimeLanguage(error: unknown): Error {
  if (!(error instanceof Error)) return new Error(`stagelink: ${String(error)}`);
  const text = sayError(error);
  if (text === error.message) return error;
  const worded = Object.create(Object.getPrototypeOf(error) as object) as Error;
  for (const key of Reflect.ownKeys(error)) Object.defineProperty(worded, key, Object.getOwnPropertyDescriptor(error, key) as PropertyDescriptor);
  const own = { writable: true, configurable: true, enumerable: false };
  Object.defineProperty(worded, 'message', { ...own, value: text });
  Object.defineProperty(worded, 'cause', { ...own, value: error });
  Object.defineProperty(worded, 'stack', { ...own, value: error.stack?.replace(`${error.name}: ${error.message}`, `${error.name}: ${text}`) });
  return worded;
}
