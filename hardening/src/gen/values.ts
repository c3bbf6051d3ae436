import type { Random } from './random.js';

/**
 * Values as they travel to Node-RED (JSON over HTTP). What JSON cannot carry (NaN, -0, BigInt, a Date, a
 * Buffer, a cycle, undefined) travels as a marker that the flow's unpack function turns into the real value
 * (see node-red/flows.ts), so a node sees exactly what a function node upstream could hand it.
 */
export type SpecialKind = 'NaN' | 'Infinity' | '-Infinity' | '-0' | 'undefined' | 'bigint' | 'date' | 'buffer' | 'circular' | 'function';
export interface Special {
  $hardening: SpecialKind;
}
export type Wire = null | boolean | number | string | Wire[] | { [key: string]: Wire };

export const SPECIAL_KINDS: readonly SpecialKind[] = ['NaN', 'Infinity', '-Infinity', '-0', 'undefined', 'bigint', 'date', 'buffer', 'circular', 'function'];

export function special(kind: SpecialKind): Wire {
  return { $hardening: kind };
}

/** Keys that have tripped JavaScript code before: prototype pollution and shadowed built-ins. */
export const DANGEROUS_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', 'then'] as const;

/** An object with an own `__proto__` or `constructor` key, as JSON.parse builds it from text. */
function pollutingObject(random: Random): Wire {
  const text = random.pick([
    '{"__proto__": {"hardeningPolluted": true}}',
    '{"constructor": {"prototype": {"hardeningPolluted": true}}}',
    '{"__proto__": null, "name": "main"}',
    '{"uid": "1", "__proto__": {"uid": "2"}}',
    '{"toString": "not a function", "valueOf": 7}',
  ]);
  return JSON.parse(text) as Wire;
}

/** Ids and names that try to leave their path segment or their header line. */
export const PATH_TRICKS: readonly string[] = [
  '..',
  '.',
  '../',
  '../../api/session/transport/stop',
  'a/b',
  '/',
  '%2e%2e',
  '%2F',
  'a?b=c',
  'a#b',
  'a\r\nX-Injected: 1',
  '\u0000',
  ' ',
  'ü🎭',
  '..%2f..%2f',
  '\\..\\..\\',
];

function hugeString(random: Random): string {
  const size = random.pick([10_000, 100_000, 1_000_000]);
  return random.pick(['x', 'é', '🎭', '"', '\\']).repeat(size).slice(0, size);
}

function nested(random: Random): Wire {
  const depth = random.integer(5, 200);
  let value: Wire = random.pick<Wire>(['main', 1, null]);
  for (let level = 0; level < depth; level++) value = random.chance(0.5) ? { a: value } : [value];
  return value;
}

const WRONG_TYPES: readonly Wire[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  // A uid above 2^53 as a JS number: it has already lost its last digit.
  Number('9007199254740993'),
  '',
  '   ',
  'true',
  '0',
  '1e3',
  'NaN',
  'null',
  [],
  [1, 'two', null],
  {},
  { uid: 5 },
  { name: {} },
  { name: '' },
  { uid: '', name: '' },
];

/** One value a user should not send but might: wrong type, huge, nested, special or path-escaping. */
export function hostileValue(random: Random): Wire {
  const roll = random.next();
  if (roll < 0.35) return random.pick(WRONG_TYPES);
  if (roll < 0.55) return special(random.pick(SPECIAL_KINDS));
  if (roll < 0.7) return random.pick(PATH_TRICKS);
  if (roll < 0.8) return pollutingObject(random);
  if (roll < 0.9) return nested(random);
  if (roll < 0.95) return hugeString(random);
  return random.pick<Wire>([[hugeString(random)], { name: hugeString(random) }, Array.from({ length: 10_000 }, (_, index) => index)]);
}

/** How many characters the value takes as JSON, for sizing batches. */
export function wireSize(value: Wire): number {
  return JSON.stringify(value)?.length ?? 0;
}

const DANGEROUS_KEY_IN_JSON = new RegExp(`"(${DANGEROUS_KEYS.join('|')})":`);

/**
 * A hostile value for a node setting. Settings travel in the flow JSON of a deploy, which Node-RED itself
 * refuses (400) when an object has no prototype or a `toString` that is not a function: such values would
 * test Node-RED's admin API, not a stagelink node, so settings never hold objects with those keys.
 */
export function hostileSetting(random: Random): Wire {
  for (let attempt = 0; attempt < 10; attempt++) {
    const value = hostileValue(random);
    if (!DANGEROUS_KEY_IN_JSON.test(JSON.stringify(value) ?? '')) return value;
  }
  return null;
}
