import { pathSegments } from './routes.js';

/** An API request as it arrived on the wire, for tests that count requests or check how ids were encoded. */
export interface ReceivedRequest {
  method: string;
  /** The request target as sent: raw path and query. */
  target: string;
  /** The path's segments after decoding, one per `/` of the raw path; empty when it was not valid encoding. */
  segments: string[];
}

const KEPT_REQUESTS = 100;

/** Counts every API request and keeps the most recent ones, so a long demo does not grow without bound. */
export class RequestLog {
  #count = 0;
  readonly #recent: ReceivedRequest[] = [];

  get count(): number {
    return this.#count;
  }

  record(method: string, target: string): void {
    this.#count++;
    const rawPath = target.split('?', 1)[0] ?? '';
    this.#recent.push({ method, target, segments: pathSegments(rawPath) ?? [] });
    if (this.#recent.length > KEPT_REQUESTS) this.#recent.shift();
  }

  /** Oldest first. */
  recent(): ReceivedRequest[] {
    return this.#recent.map((request) => ({ ...request, segments: [...request.segments] }));
  }
}
