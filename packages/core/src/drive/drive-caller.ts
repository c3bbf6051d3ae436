import type { HttpClient, HttpResponse, Method, QueryValue } from '../http/http-client.js';
import { driveErrorFor } from './errors.js';
import type { VersionRef } from './paths.js';
import { redactSecret } from './redact.js';

export interface DriveRequest {
  method: Method;
  path: string;
  /** The ids in the path, for error messages that say which resource was missing. */
  ids: Partial<VersionRef>;
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
  idempotent?: boolean;
}

/** Sends one drive request over the shared HttpClient and turns an answer outside 2xx into a typed error. */
export class DriveCaller {
  readonly #http: HttpClient;
  /** Kept only to scrub it from server answers before they become part of an error. */
  readonly #token: string;

  constructor(http: HttpClient, token: string) {
    this.#http = http;
    this.#token = token;
  }

  async send({ ids, ...request }: DriveRequest): Promise<HttpResponse> {
    const response = await this.#http.request(request);
    if (response.status >= 200 && response.status < 300) return response;
    throw driveErrorFor({ ...response, body: redactSecret(response.body, this.#token) }, ids);
  }
}
