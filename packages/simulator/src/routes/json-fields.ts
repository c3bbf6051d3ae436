import type { Ref, Vec2, Vec3 } from '@stagelink/core';
import { BadRequest } from '../http-errors.js';
import type { SimRequest } from './route.js';

type JsonObject = Record<string, unknown>;

/**
 * Reads the fields of a JSON object by the request shapes of the spec, with the path of each field in its
 * message (`transports[1].transport`). A wrong shape is a BadRequest (HTTP 400); whether the values make
 * sense is the model's call.
 */
export class JsonFields {
  private constructor(
    private readonly json: JsonObject,
    private readonly at: string,
  ) {}

  /** The request body, which must be a JSON object. */
  static body(request: SimRequest): JsonFields {
    return JsonFields.of(request.body(), '', 'The request body');
  }

  /** The request body, which must be a JSON array of objects (the hardware family's lists). */
  static bodyItems(request: SimRequest): JsonFields[] {
    const body = request.body();
    if (!Array.isArray(body)) throw new BadRequest(`The request body must be a JSON array (got ${describeJson(body)}).`);
    return body.map((item, index) => JsonFields.of(item, `[${index}]`));
  }

  static of(value: unknown, at: string, label = at): JsonFields {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new BadRequest(`${label} must be a JSON object (got ${describeJson(value)}).`);
    }
    return new JsonFields(value as JsonObject, at);
  }

  /** Every value, for objects of string keys to string values. */
  entries(): [string, unknown][] {
    return Object.entries(this.json);
  }

  /** A value as sent, before any check. */
  raw(key: string): unknown {
    return this.json[key];
  }

  text(key: string): string {
    return this.#typed(key, 'a string', (value): value is string => typeof value === 'string');
  }

  optionalText(key: string): string | undefined {
    return this.#has(key) ? this.text(key) : undefined;
  }

  number(key: string): number {
    return this.#typed(key, 'a number', (value): value is number => typeof value === 'number' && Number.isFinite(value));
  }

  optionalNumber(key: string): number | undefined {
    return this.#has(key) ? this.number(key) : undefined;
  }

  boolean(key: string): boolean {
    return this.#typed(key, 'true or false', (value): value is boolean => typeof value === 'boolean');
  }

  optionalBoolean(key: string): boolean | undefined {
    return this.#has(key) ? this.boolean(key) : undefined;
  }

  object(key: string): JsonFields {
    return JsonFields.of(this.#required(key), this.#path(key));
  }

  ref(key: string): Ref {
    return readRef(this.#required(key), this.#path(key));
  }

  list(key: string): unknown[] {
    return this.#typed(key, 'an array', (value): value is unknown[] => Array.isArray(value));
  }

  /** An array of objects. */
  items(key: string): JsonFields[] {
    return this.list(key).map((item, index) => JsonFields.of(item, `${this.#path(key)}[${index}]`));
  }

  optionalItems(key: string): JsonFields[] | undefined {
    return this.#has(key) ? this.items(key) : undefined;
  }

  /** An array of Refs, each given directly (not wrapped in an object). */
  refs(key: string): Ref[] {
    return this.list(key).map((item, index) => readRef(item, `${this.#path(key)}[${index}]`));
  }

  texts(key: string): string[] {
    return this.list(key).map((item, index) => {
      if (typeof item !== 'string') throw new BadRequest(`${this.#path(key)}[${index}] must be a string (got ${describeJson(item)}).`);
      return item;
    });
  }

  optionalTexts(key: string): string[] | undefined {
    return this.#has(key) ? this.texts(key) : undefined;
  }

  vec2(key: string): Vec2 {
    const vector = this.object(key);
    return { x: vector.number('x'), y: vector.number('y') };
  }

  optionalVec3(key: string): Vec3 | undefined {
    if (!this.#has(key)) return undefined;
    const vector = this.object(key);
    return { x: vector.number('x'), y: vector.number('y'), z: vector.number('z') };
  }

  #has(key: string): boolean {
    return this.json[key] !== undefined && this.json[key] !== null;
  }

  #required(key: string): unknown {
    if (!this.#has(key)) throw new BadRequest(`${this.#path(key)} is missing.`);
    return this.json[key];
  }

  #typed<T>(key: string, expected: string, is: (value: unknown) => value is T): T {
    const value = this.#required(key);
    if (!is(value)) throw new BadRequest(`${this.#path(key)} must be ${expected} (got ${describeJson(value)}).`);
    return value;
  }

  #path(key: string): string {
    return this.at ? `${this.at}.${key}` : key;
  }
}

/**
 * A Ref: `uid` and/or `name`, both strings. A uid sent as a JSON number is refused: uint64 values above 2^53
 * lose digits as numbers, so the spec writes them as strings.
 */
export function readRef(value: unknown, at: string): Ref {
  const fields = JsonFields.of(value, at);
  const raw = fields.raw('uid');
  if (typeof raw === 'number') throw new BadRequest(`${at}.uid must be a string of digits: uint64 uids lose digits as JSON numbers (got ${raw}).`);
  const uid = fields.optionalText('uid');
  const name = fields.optionalText('name');
  if (!uid && !name) throw new BadRequest(`${at} must name its object by uid or name (got ${describeJson(value)}).`);
  return { ...(uid ? { uid } : {}), ...(name ? { name } : {}) };
}

export function describeJson(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
  return text.length > 40 ? kind : `${kind} ${text}`;
}
