import { HttpError, NotOfferedError, UnexpectedAnswerError } from '../errors.js';
import type { HttpClient } from '../http/http-client.js';
import type { CallOptions } from './endpoint-caller.js';
import type { BodySchema } from './body-check.js';
import type { EndpointSpec } from './catalogue.js';

/** Where a director describes its own API (OpenAPI 2, "d3 API"): the commands this build accepts. */
export const API_DESCRIPTION_PATH = '/docs/session/d3api.swagger.json';
/** The paths a description without a `basePath` covers: the session family, where its own address says it is. */
const DEFAULT_BASE_PATH = '/api/session';

export interface ApiDescription {
  title?: string;
  version?: string;
  /** Every operation described, as `METHOD /path` with the description's `basePath` in front. */
  operations: readonly string[];
  /** The summary the description gives each operation, by `METHOD /path`; absent when it gives none. */
  summaries: Readonly<Record<string, string>>;
  /** The body schema the description gives each operation that takes one, by `METHOD /path`. */
  bodies: Readonly<Record<string, BodySchema>>;
  /** What the schemas refer to (`#/definitions/Ref`). */
  definitions: Readonly<Record<string, BodySchema>>;
  /**
   * Whether this build offers an endpoint of the catalogue. The description covers the paths under its `basePath`
   * (`/api/session` on shipping directors); the service and hardware families are not in it and count as offered.
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
  const summaries: Record<string, string> = {};
  const bodies: Record<string, BodySchema> = {};
  const basePath = basePathOf(body);
  const operations = Object.entries(paths as Record<string, unknown>).flatMap(([path, methods]) =>
    Object.entries(typeof methods === 'object' && methods !== null ? (methods as Record<string, unknown>) : {}).map(([method, operation]) => {
      const name = `${method.toUpperCase()} ${underBase(basePath, path)}`;
      const summary = (operation as { summary?: unknown } | null)?.summary;
      if (typeof summary === 'string' && summary !== '') summaries[name] = summary;
      const body = bodySchemaOf(operation);
      if (body) bodies[name] = body;
      return name;
    }),
  );
  const described = new Set(operations.map((operation) => operation.toLowerCase()));
  const info = (body as { info?: { title?: unknown; version?: unknown } }).info;
  return {
    ...(typeof info?.title === 'string' ? { title: info.title } : {}),
    ...(typeof info?.version === 'string' ? { version: info.version } : {}),
    operations,
    summaries,
    bodies,
    definitions: objectOrEmpty((body as { definitions?: unknown }).definitions) as Record<string, BodySchema>,
    // Only what the description covers can be missing from it: a shipping director describes `/api/session`.
    offers: (endpoint) => !endpoint.path.startsWith(`${basePath}/`) || described.has(`${endpoint.method} ${endpoint.path}`.toLowerCase()),
  };
}

/** The schema of an operation's body parameter (`in: body`), when it has one. */
function bodySchemaOf(operation: unknown): BodySchema | undefined {
  const parameters = (operation as { parameters?: unknown } | null)?.parameters;
  if (!Array.isArray(parameters)) return undefined;
  const body = parameters.find((parameter) => (parameter as { in?: unknown } | null)?.in === 'body') as { schema?: unknown } | undefined;
  return typeof body?.schema === 'object' && body.schema !== null ? body.schema : undefined;
}

function objectOrEmpty(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Where the described paths live: the description's `basePath` (a shipping director's is `/api/session`). */
function basePathOf(description: unknown): string {
  const basePath = (description as { basePath?: unknown }).basePath;
  return typeof basePath === 'string' && basePath.startsWith('/') ? basePath.replace(/\/+$/, '') : DEFAULT_BASE_PATH;
}

/** A described path as the catalogue writes it, whether the description gives it under its base or whole. */
function underBase(basePath: string, path: string): string {
  if (path.startsWith(`${basePath}/`) || path.startsWith('/api/')) return path;
  return `${basePath}${path.startsWith('/') ? '' : '/'}${path}`;
}
