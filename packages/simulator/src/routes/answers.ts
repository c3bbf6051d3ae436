import type { ApiFamily, Envelope } from '@stagelink/core';
import { dialectWords, type DialectWords } from '../state/dialect.js';
import type { Answer } from './route.js';
import type { StatusCodeValue } from '../state/refusal.js';

export function envelope(code = 0, message = ''): Envelope {
  return { status: { code, message, details: [] } };
}

/** A session or service success: the envelope, with the endpoint's fields beside it. */
export function answered(fields: Record<string, unknown> = {}): Answer {
  return { status: 200, body: { ...envelope(), ...fields } };
}

export function withResult(result: unknown): Answer {
  return answered({ result });
}

/** A body that is not JSON, as a web server's own 404 page. */
export function plainText(status: number, text: string): Answer {
  return { status, body: text, headers: { 'content-type': PLAIN_TEXT } };
}

export const PLAIN_TEXT = 'text/plain; charset=utf-8';

/** A hardware answer: a plain body, no envelope. */
export function hardwareAnswer(status: number, body: unknown): Answer {
  return { status, body };
}

/** The hardware family's Message on success. */
export function hardwareOk(status: 200 | 201 = 200): Answer {
  return hardwareAnswer(status, { message: 'ok' });
}

/**
 * A failure in the shape of its family: session and service answers always carry the envelope (with a non-zero
 * code), hardware and unknown paths a `{message}`.
 */
export function failureAnswer(
  family: ApiFamily | undefined,
  status: number,
  code: StatusCodeValue,
  message: string,
  words: DialectWords = dialectWords('spec'),
): Answer {
  const body = family === 'session' || family === 'service' ? words.refusal(code, message) : { message };
  return { status, body };
}
