import { BadRequest } from './http-errors.js';
import type { JsonFields } from './routes/json-fields.js';

/** The longest wait a test may ask for (a latency, a late answer): a minute. */
export const MAX_LATENCY_MS = 60_000;

/** A whole number from `min` to `max`; BadRequest (400) naming the parameter when it is anything else. */
export function wholeNumber(params: JsonFields, key: string, min: number, max: number): number {
  const value = params.number(key);
  if (!Number.isInteger(value) || value < min || value > max) throw new BadRequest(`${key} must be a whole number from ${min} to ${max} (got ${value}).`);
  return value;
}

/** The same, or `fallback` when the parameter is not sent. */
export function optionalWholeNumber(params: JsonFields, key: string, min: number, max: number, fallback: number): number {
  return params.raw(key) === undefined ? fallback : wholeNumber(params, key, min, max);
}

/** An exact request path, as the router sees it: `/api/session/transport/transports`. */
export function requestPath(params: JsonFields, key: string): string {
  const path = params.text(key);
  if (!path.startsWith('/')) throw new BadRequest(`${key} must be a request path starting with "/", such as "/api/session/transport/transports" (got "${path}").`);
  return path;
}
