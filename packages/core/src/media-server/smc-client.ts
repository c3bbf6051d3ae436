import { originOf } from '../http/host.js';
import { HttpClient } from '../http/http-client.js';
import { silentLogger, type Logger } from '../http/logger.js';
import type { TlsOptions } from '../http/tls.js';
import type { EndpointSpec } from './catalogue.js';
import { EndpointCaller, type EndpointInput, type GuardedCallOptions } from './endpoint-caller.js';
import { HardwareApi } from './hardware.js';

export interface SmcOptions {
  /** The machine's management address (its SMC), which is not the address of the session API. */
  host: string;
  /** The SMC account that writes need (HTTP Basic); reads work without. Never logged, never in an error. */
  username?: string;
  password?: string;
  timeoutMs?: number;
  retries?: number;
  logger?: Logger;
  /** How to trust an `https://` SMC's certificate. */
  tls?: TlsOptions;
}

/**
 * The hardware family of one machine, served by its management controller: `smc`, `vfcs`, `chassis`, `oled`,
 * `ledStrip`, ... Shipping machines answer it on the management network address with HTTP Basic accounts;
 * one client per machine. Close it when done.
 */
export class SmcClient extends HardwareApi {
  readonly host: string;
  readonly #endpoints: EndpointCaller;
  readonly #http: HttpClient;

  constructor(options: SmcOptions) {
    const http = new HttpClient({
      baseUrl: originOf(options.host),
      timeoutMs: options.timeoutMs,
      retries: options.retries,
      headers: basicAuth(options),
      ...(options.tls ? { tls: options.tls } : {}),
    });
    const endpoints = new EndpointCaller(http);
    super(endpoints, options.logger ?? silentLogger);
    this.#endpoints = endpoints;
    this.host = http.baseUrl;
    this.#http = http;
  }

  /** Sends any hardware endpoint of the catalogue to this SMC. */
  call<T>(spec: EndpointSpec, input?: EndpointInput, options?: GuardedCallOptions): Promise<T> {
    return this.#endpoints.call<T>(spec, input, options);
  }

  /** Closes the connection pool. Safe to call more than once. */
  async close(): Promise<void> {
    await this.#http.close();
  }
}

function basicAuth({ username, password }: SmcOptions): Record<string, string> {
  if (username === undefined && password === undefined) return {};
  return { authorization: `Basic ${Buffer.from(`${username ?? ''}:${password ?? ''}`, 'utf8').toString('base64')}` };
}
