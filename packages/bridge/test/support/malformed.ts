import { FAILOVER_COMMANDS } from '../../src/index.js';
import { TRANSPORT_COMMAND_NAMES, TRANSPORT_COMMANDS } from '@stagelink/core';

/** A seeded generator, so that a failing input replays exactly. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

export interface MalformedInput {
  /** Below `<prefix>/cmd/`. */
  path: string;
  payload: Buffer;
  what: string;
}

const WRONG_VALUES: unknown[] = [null, true, false, 0, -1, 1.5, 1e308, '', ' ', 'x'.repeat(5000), [], [1, 2], {}, { name: 5 }, { uid: 123 }, { uid: 'abc' }, { nested: { deep: true } }];
const WRONG_BY_KIND: Record<string, unknown[]> = {
  text: [null, 5, true, [], {}, 'x'.repeat(2000)],
  ref: [null, 5, true, [], {}, '', { name: '' }, { uid: 12 }, { uid: '12a' }, { other: 'x' }],
  index: [null, true, -1, 1.5, 'first', [], {}, '1e3'],
  number: [null, true, '5', [], {}, 'NaN'],
  boolean: [null, 0, 1, 'true', 'false', [], {}],
};

/**
 * Malformed commands for every command topic: not JSON, not an object, no transport, fields of the wrong kind,
 * fields the command does not take, prototype keys, bad ids and times, oversized and deeply nested payloads,
 * unknown commands, unconfirmed failovers. None of them may reach the director.
 */
export function malformedInputs(count: number, seed: number, sentAt: () => number): MalformedInput[] {
  const random = seeded(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const json = (path: string, body: unknown, what: string): MalformedInput => ({ path, payload: Buffer.from(JSON.stringify(body) ?? 'undefined'), what });
  const raw = (path: string, text: string, what: string): MalformedInput => ({ path, payload: Buffer.from(text), what });
  const paths = [...TRANSPORT_COMMAND_NAMES.map((name) => `transport/${name}`), ...Object.keys(FAILOVER_COMMANDS).map((name) => `failover/${name}`)];
  const makers: ((path: string) => MalformedInput)[] = [
    (path) => raw(path, pick(['', 'play', '{', '{"transport":', '{"transport":"main"', 'null garbage', '\u0000\u0001\u0002', '{\'transport\':\'main\'}', '[', '{"a":1}}']), 'not JSON'),
    (path) => json(path, pick([null, 1, 'main', ['main'], true, [{ transport: 'main' }]]), 'not an object'),
    (path) => (path.startsWith('transport/') ? json(path, { sentAt: sentAt(), id: `m${random()}` }, 'no transport') : json(path, { sentAt: sentAt(), confirm: pick([false, 'true', 1, null, 'yes']), machine: 'Actor 1' }, 'unconfirmed')),
    (path) => json(path, { transport: pick(WRONG_VALUES), sentAt: sentAt() }, 'transport of the wrong kind'),
    (path) => json(path, { transport: 'main', sentAt: sentAt(), [pick(['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'then', 'transprot', 'cmd'])]: { polluted: true } }, 'a field the command does not take'),
    (path) => json(path, { transport: 'main', confirm: true, machine: 'Actor 1', sentAt: sentAt(), id: pick([{}, [], true, '', 'i'.repeat(500), null]) }, 'an id of the wrong kind'),
    (path) => json(path, { transport: 'main', confirm: true, machine: 'Actor 1', sentAt: pick(['now', -5, 0, null, {}, [], true, '1700000000000']) }, 'a sentAt of the wrong kind'),
    (path) => {
      const [family, name] = path.split('/');
      if (family === 'transport') {
        const shape = TRANSPORT_COMMANDS[name as keyof typeof TRANSPORT_COMMANDS];
        const fields = [...shape.required, ...shape.optional];
        if (fields.length === 0) return json(path, { transport: 'main', sentAt: sentAt(), volume: 0.5 }, 'a field play-like commands do not take');
        const field = pick(fields);
        const kinds: Record<string, string> = { playmode: 'text', track: 'ref', section: 'index', note: 'text', tagType: 'text', tagValue: 'text', allowGlobalJump: 'boolean', time: 'number', timecode: 'text', ignoreTags: 'boolean', frame: 'number', volume: 'number', brightness: 'number', engaged: 'boolean', speed: 'number' };
        return json(path, { transport: 'main', sentAt: sentAt(), [field]: pick(WRONG_BY_KIND[kinds[field] ?? 'text'] ?? [null]) }, `${field} of the wrong kind`);
      }
      return json(path, { sentAt: sentAt(), confirm: true, machine: pick([null, 5, [], {}, '', { uid: 7 }, { host: 'x' }]) }, 'machine of the wrong kind');
    },
    (path) => raw(path, `{"transport":"main","sentAt":${sentAt()},"pad":"${'x'.repeat(70 * 1024)}"}`, 'oversized'),
    (path) => raw(path, `${'['.repeat(5000)}${']'.repeat(5000)}`, 'deeply nested'),
    () => json(pick(['transport/explode', 'transport/PLAY', 'transport', 'transport/play/now', 'failover/shutdown', 'lights/on', 'failover', '', 'transport/__proto__', 'transport/constructor']), { transport: 'main', sentAt: sentAt() }, 'unknown command'),
  ];
  return Array.from({ length: count }, () => pick(makers)(pick(paths)));
}
