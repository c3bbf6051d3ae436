import { endpointList, type ApiFamily, type EndpointName, type EndpointSpec, type HttpMethod } from '@stagelink/core';

export type CatalogueEndpoint = EndpointSpec & { id: EndpointName };

type Segment = { literal: string } | { param: string };

interface CompiledEndpoint {
  endpoint: CatalogueEndpoint;
  segments: Segment[];
}

export type RouteMatch =
  | { kind: 'endpoint'; endpoint: CatalogueEndpoint; params: Record<string, string> }
  | { kind: 'wrong-method'; allowed: HttpMethod[]; family: ApiFamily }
  | { kind: 'unknown'; family: ApiFamily | undefined };

/** Finds the catalogue endpoint of a request: the catalogue is the routing table, so the two cannot drift. */
export class EndpointRouter {
  readonly #compiled: CompiledEndpoint[] = endpointList.map((endpoint) => ({ endpoint, segments: compile(endpoint.path) }));

  match(method: string, pathname: string): RouteMatch {
    const parts = splitPath(pathname);
    const matches = this.#compiled.flatMap(({ endpoint, segments }) => {
      const params = matchSegments(segments, parts);
      return params ? [{ endpoint, params }] : [];
    });
    const exact = matches.find(({ endpoint }) => endpoint.method === method);
    if (exact) return { kind: 'endpoint', ...exact };
    const first = matches[0];
    if (first) return { kind: 'wrong-method', allowed: matches.map(({ endpoint }) => endpoint.method), family: first.endpoint.family };
    return { kind: 'unknown', family: familyOfPath(pathname) };
  }
}

/** The family an unknown path would belong to, so even its 404 has the family's shape. */
export function familyOfPath(pathname: string): ApiFamily | undefined {
  if (pathname.startsWith('/api/session/')) return 'session';
  if (pathname.startsWith('/api/service/')) return 'service';
  return pathname.startsWith('/api/') ? 'hardware' : undefined;
}

function compile(path: string): Segment[] {
  return splitPath(path).map((part) => {
    const param = /^\{(\w+)\}$/.exec(part)?.[1];
    return param ? { param } : { literal: part };
  });
}

/** Path segments; a trailing slash is ignored. */
function splitPath(path: string): string[] {
  return path.split('/').filter((part, index, parts) => index > 0 && !(part === '' && index === parts.length - 1));
}

function matchSegments(segments: Segment[], parts: string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, segment] of segments.entries()) {
    const part = parts[index] ?? '';
    if ('literal' in segment) {
      if (segment.literal !== part) return undefined;
    } else {
      if (part === '') return undefined;
      params[segment.param] = decodeSegment(part);
    }
  }
  return params;
}

/** `%3A` in a MAC becomes `:`; a malformed escape stays as sent and simply matches nothing. */
function decodeSegment(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
