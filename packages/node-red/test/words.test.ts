import { ConnectionError } from '@stagelink/core';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Node, NodeStatus } from '../src/shared/node-red.js';
import { StatusLine } from '../src/shared/status.js';
import { say, useRuntime } from '../src/shared/words.js';

type Catalog = Record<string, unknown>;
const catalogOf = (language: string): Catalog =>
  JSON.parse(readFileSync(new URL(`../src/nodes/stagelink-server/locales/${language}/stagelink-server.json`, import.meta.url), 'utf8')) as Catalog;

/** What Node-RED's i18n answers for a namespaced key: the words of the runtime's language, or the key itself. */
function runtimeIn(language: string): { _: (key: string, values?: Record<string, string | number>) => string } {
  const catalog = catalogOf(language);
  return {
    _: (key, values = {}) => {
      const [namespace, path] = key.split(':');
      if (namespace !== '@stagelink/node-red/stagelink-server' || !path) return key;
      const found = path.split('.').reduce<unknown>((node, part) => (node as Catalog | undefined)?.[part], catalog);
      return typeof found === 'string' ? found.replace(/__(\w+)__/g, (whole, name: string) => String(values[name] ?? whole)) : key;
    },
  };
}

/** The short status forms: their words without the values filled in. */
function shortForms(language: string): [string, string][] {
  const server = catalogOf(language)['stagelink-server'] as Record<string, Record<string, string>>;
  return ['state', 'status', 'summary'].flatMap((group) => Object.entries(server[group] ?? {}).map(([key, text]): [string, string] => [`${group}.${key}`, text]));
}

describe('runtime words', () => {
  it.each(['en-US', 'de'])('keeps every short status form of %s within 20 characters', (language) => {
    const forms = shortForms(language);
    expect(forms.length).toBeGreaterThan(40);
    for (const [key, text] of forms) expect(text.replace(/__\w+__/g, '').length, `${language} ${key}: "${text}"`).toBeLessThanOrEqual(20);
  });

  it('shows a status line and its error summaries in the runtime language, and en-US words for anything it lacks', () => {
    const shown: NodeStatus[] = [];
    const node = { status: (status: NodeStatus) => shown.push(status) } as unknown as Node<never>;
    // Before the runtime is known (a unit test, a helper whose translator answers keys): en-US.
    expect(say('summary.STAGELINK_ERR_CONNECTION')).toBe('unreachable');
    useRuntime(runtimeIn('de'));
    const line = new StatusLine(node);
    line.failed(new ConnectionError('nothing answered'));
    line.serverState({ fill: 'yellow', shape: 'ring', text: say('state.director', { hostname: 'DIRECTOR01' }) }, 'bad');
    line.close();
    expect(shown.map((status) => status.text)).toEqual(['nicht erreichbar', 'Director DIRECTOR01', undefined]);
    expect(say('summary.STAGELINK_ERR_STALLED_ANSWER')).toBe('MTU? Antwort hängt');
    expect(say('no.such.key')).toBe('no.such.key');
  });
});
