import english from '../nodes/stagelink-server/locales/en-US/stagelink-server.json';
import type { NodeAPI } from './node-red.js';

/** The catalog every node shares words from: the server config node's (loaded with every stagelink node). */
const SHARED_CATALOG = '@stagelink/node-red/stagelink-server:stagelink-server';

/**
 * Runtime words in the runtime's language (Node-RED's `lang` setting, else the system's), from the server config
 * node's catalog: `key` under its `stagelink-server` entry, e.g. `state.connected`. Where the runtime has no
 * words for it (it answers the key itself), the en-US words, so a status never shows a catalog key.
 */
export function say(RED: NodeAPI, key: string, values: Record<string, string | number> = {}): string {
  const full = `${SHARED_CATALOG}.${key}`;
  const text = RED._(full, values);
  if (typeof text === 'string' && text !== full && text !== '') return text;
  return fill(englishOf(key), values) ?? key;
}

function englishOf(key: string): string | undefined {
  const found = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], english['stagelink-server']);
  return typeof found === 'string' ? found : undefined;
}

/** Node-RED's `__name__` placeholders. */
function fill(text: string | undefined, values: Record<string, string | number>): string | undefined {
  return text?.replace(/__([A-Za-z]+)__/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
