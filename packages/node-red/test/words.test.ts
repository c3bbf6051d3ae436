import { ConnectionError } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import type { Node, NodeStatus } from '../src/shared/node-red.js';
import { StatusLine } from '../src/shared/status.js';
import { say, useRuntime } from '../src/shared/words.js';
import { catalogOf, runtimeIn } from './support/runtime-words.js';

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
