import { endpointList } from '@stagelink/core';
import type { Answer } from './routes/route.js';
import type { DialectWords } from './state/dialect.js';

/**
 * `GET /docs/session/d3api.swagger.json`: the build's own description of the session and service commands it
 * offers (OpenAPI 2, as shipping directors serve it), made from the catalogue so it cannot drift.
 */
export function apiDescription(words: DialectWords): Answer {
  const paths: Record<string, Record<string, { summary: string }>> = {};
  for (const endpoint of endpointList) {
    if (endpoint.family === 'hardware' || !words.offers(endpoint)) continue;
    (paths[endpoint.path] ??= {})[endpoint.method.toLowerCase()] = { summary: endpoint.summary };
  }
  const version = words.dialect === 'r34' ? '2.0.3' : '1.0.0';
  return { status: 200, body: { swagger: '2.0', info: { title: 'd3 API', version }, paths } };
}
