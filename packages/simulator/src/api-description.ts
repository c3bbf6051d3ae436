import { endpointList, type BodyField } from '@stagelink/core';
import type { Answer } from './routes/route.js';
import type { DialectWords } from './state/dialect.js';
import type { LaterCommand } from './state/later-commands.js';

type Schema = Record<string, unknown>;

const REF: Schema = { $ref: '#/definitions/Ref' };

const FIELD_SCHEMAS: Readonly<Record<BodyField, Schema>> = {
  Ref: REF,
  'Ref[]': { type: 'array', items: REF },
  string: { type: 'string' },
  boolean: { type: 'boolean' },
  'object[]': { type: 'array', items: { type: 'object' } },
};

/** A POST's body parameter, as OpenAPI 2 gives it, from the fields the catalogue records. */
function bodyParameter(body: Readonly<Record<string, BodyField>>): Schema {
  const properties = Object.fromEntries(Object.entries(body).map(([name, field]) => [name, FIELD_SCHEMAS[field]]));
  return { in: 'body', name: 'body', required: true, schema: { type: 'object', properties } };
}

/** Where a shipping director's description puts its paths: each is written after it. */
const BASE_PATH = '/api/session';

/**
 * `GET /docs/session/d3api.swagger.json`: the build's own description of the session commands it offers (OpenAPI
 * 2, as shipping directors serve it: paths under `basePath`), made from the catalogue, its paths and the recorded
 * bodies, so it cannot drift; with the commands of a later build (`describeCommand`) after them.
 */
export function apiDescription(words: DialectWords, later: readonly LaterCommand[] = []): Answer {
  const paths: Record<string, Record<string, Schema>> = {};
  const offered = endpointList.filter((endpoint) => endpoint.family === 'session' && words.offers(endpoint));
  for (const command of [...offered, ...later]) {
    (paths[command.path.slice(BASE_PATH.length)] ??= {})[command.method.toLowerCase()] = {
      summary: command.summary,
      ...(command.body ? { parameters: [bodyParameter(command.body)] } : {}),
    };
  }
  const version = words.dialect === 'r34' ? '2.0.3' : '1.0.0';
  const definitions = { Ref: { type: 'object', properties: { uid: { type: 'string' }, name: { type: 'string' } } } };
  return { status: 200, body: { swagger: '2.0', info: { title: 'd3 API', version }, basePath: BASE_PATH, paths, definitions } };
}
