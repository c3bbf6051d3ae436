import { HttpError, NotOfferedError, UnexpectedAnswerError } from '../errors.js';
import type { HttpClient } from '../http/http-client.js';
import type { CallOptions } from './endpoint-caller.js';
import type { EndpointSpec } from './catalogue.js';

/** Where a director describes its own API (OpenAPI 2, "d3 API"): the commands this build accepts. */
export const API_DESCRIPTION_PATH = '/docs/session/d3api.swagger.json';

export interface ApiDescription {
  title?: string;
  version?: string;
  /** Every operation described, as `METHOD /path`. */
  operations: readonly string[];
  /**
   * Whether this build offers an endpoint of the catalogue. The description covers the session and service
   * families; the hardware family (served by each machine's SMC) is not in it and counts as offered.
   */
  offers(endpoint: Pick<EndpointSpec, 'method' | 'path' | 'family'>): boolean;
}

/** Reads and checks the description; NotOfferedError when this build has none. */
export async function readApiDescription(http: HttpClient, options: CallOptions = {}): Promise<ApiDescription> {
  const { status, body, context } = await http.request({ method: 'GET', path: API_DESCRIPTION_PATH, signal: options.signal, timeoutMs: options.timeoutMs });
  const where = `${context.method} ${context.url}`;
  if (status === 404 || status === 405) {
    throw new NotOfferedError(`${where} answered ${status}: this build does not describe its API; its commands are those of the API documents.`, status, body, context);
  }
  if (status < 200 || status >= 300) throw new HttpError(`${where} answered ${status}.`, status, body, context);
  const paths = (body as { paths?: unknown } | null)?.paths;
  if (typeof paths !== 'object' || paths === null || Array.isArray(paths)) {
    throw new UnexpectedAnswerError(`${where} answered without the \`paths\` of an OpenAPI description: check that this address is a media server's API.`, context);
  }
  const operations = Object.entries(paths as Record<string, unknown>).flatMap(([path, methods]) =>
    Object.keys(typeof methods === 'object' && methods !== null ? methods : {}).map((method) => `${method.toUpperCase()} ${path}`),
  );
  const described = new Set(operations.map((operation) => operation.toLowerCase()));
  const info = (body as { info?: { title?: unknown; version?: unknown } }).info;
  return {
    ...(typeof info?.title === 'string' ? { title: info.title } : {}),
    ...(typeof info?.version === 'string' ? { version: info.version } : {}),
    operations,
    offers: (endpoint) => endpoint.family === 'hardware' || described.has(`${endpoint.method} ${endpoint.path}`.toLowerCase()),
  };
}
