import { InvalidInputError } from '../errors.js';
import { HttpClient } from '../http/http-client.js';
import { DriveCaller } from './drive-caller.js';
import { DriveVersions } from './versions.js';
import type { TlsOptions } from '../http/tls.js';

export interface DriveClientOptions {
  /** The drive service's address, path prefix included (`{drive_url}` of the spec); paths under it start with /v1. */
  baseUrl: string;
  /** API token of an organisation admin or owner. Sent as `Authorization: Token <token>`; never shown anywhere. */
  token: string;
  /** Deadline of one request, retries included (default 5000 ms). */
  timeoutMs?: number;
  /** Retries of a retryable failure (default 2). */
  retries?: number;
  /** How to trust the drive's certificate (a company CA, a self-signed test drive). */
  tls?: TlsOptions;
}

/**
 * The cloud drive's asset versions over one keep-alive connection pool. The token lives only in private fields,
 * so logging or inspecting the client never shows it. Close the client when done.
 */
export class DriveClient {
  readonly baseUrl: string;
  readonly versions: DriveVersions;
  readonly #http: HttpClient;

  constructor(options: DriveClientOptions) {
    this.baseUrl = checkedBaseUrl(options.baseUrl);
    const token = checkedToken(options.token);
    this.#http = new HttpClient({
      baseUrl: this.baseUrl,
      timeoutMs: options.timeoutMs,
      retries: options.retries,
      headers: { authorization: `Token ${token}` },
      tls: options.tls,
    });
    this.versions = new DriveVersions(new DriveCaller(this.#http, token));
  }

  /** Closes the connection pool. Safe to call more than once. */
  close(): Promise<void> {
    return this.#http.close();
  }
}

function checkedBaseUrl(baseUrl: unknown): string {
  let url: URL | undefined;
  try {
    url = typeof baseUrl === 'string' ? new URL(baseUrl) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
    throw new InvalidInputError(
      `baseUrl must be the drive service's http:// or https:// address without query, e.g. https://drive.example.com, got ${JSON.stringify(baseUrl)}.`,
    );
  }
  return url.href.replace(/\/+$/, '');
}

/** Printable ASCII without spaces: anything else cannot be a token and could break the header. */
function checkedToken(token: unknown): string {
  if (typeof token !== 'string' || !/^[\x21-\x7e]+$/.test(token)) {
    throw new InvalidInputError(
      'token must be the API token from the organisation\'s Settings > Integrations tab (printable characters, no spaces).',
    );
  }
  return token;
}
