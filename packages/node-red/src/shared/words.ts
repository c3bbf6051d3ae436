import english from '../nodes/stagelink-server/locales/en-US/stagelink-server.json';
import type { NodeAPI } from './node-red.js';

/** The catalog every node shares words from: the server config node's (loaded with every stagelink node). */
const SHARED_CATALOG = '@stagelink/node-red/stagelink-server:stagelink-server';

type Translate = NodeAPI['_'];

/**
 * The runtime's translator, set by the first node type registered. Every node file shares this module, and a key
 * with its catalog's namespace reads the same from any node set's `RED._`.
 */
let translate: Translate | undefined;

/** Called by each node file's `register`: runtime words come in the runtime's language from then on. */
export function useRuntime(RED: Pick<NodeAPI, '_'>): void {
  if (typeof RED._ === 'function') translate ??= RED._.bind(RED);
}

/**
 * Runtime words in the runtime's language (Node-RED's `lang` setting, else the system's), from the server config
 * node's catalog: `key` under its `stagelink-server` entry, e.g. `state.connected`. Where the runtime has no
 * words for it (it answers the key itself), the en-US words, so a status never shows a catalog key.
 * A numeric `count` picks the plural words (`key_plural`) for any count but 1, as Node-RED's i18next does.
 */
export function say(key: string, values: Record<string, string | number> = {}): string {
  const full = `${SHARED_CATALOG}.${key}`;
  const text = translate?.(full, values);
  if (typeof text === 'string' && text !== full && text !== '') return text;
  return fill(englishOf(pluralOf(key, values)) ?? englishOf(key), values) ?? key;
}

/** `key_plural` for a count other than 1: the catalog's plural words, where it has them (i18next's v3 layout). */
function pluralOf(key: string, values: Record<string, string | number>): string {
  return typeof values['count'] === 'number' && values['count'] !== 1 ? `${key}_plural` : key;
}

/** Whether the catalog has words of its own for `key` (its en-US words, which every language falls back to). */
export function hasWords(key: string): boolean {
  return englishOf(key) !== undefined;
}

function englishOf(key: string): string | undefined {
  const found = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], english['stagelink-server']);
  return typeof found === 'string' ? found : undefined;
}

/** Node-RED's `__name__` placeholders. */
function fill(text: string | undefined, values: Record<string, string | number>): string | undefined {
  return text?.replace(/__([A-Za-z]+)__/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
