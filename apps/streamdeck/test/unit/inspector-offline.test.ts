import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLUGIN_DIR } from '../harness/fake-stream-deck.js';

const UI_DIR = join(PLUGIN_DIR, 'ui');
const pages = readdirSync(UI_DIR).filter((file) => /\.(html|js|css)$/.test(file));

describe('the property inspectors at an air-gapped desk', () => {
  it('has pages to check', () => {
    expect(pages).toEqual(expect.arrayContaining(['transport.html', 'inspector.js']));
  });

  it.each(pages)('%s loads nothing from the network (no CDN, no external URL)', (file) => {
    const source = readFileSync(join(UI_DIR, file), 'utf8');
    // The one address an inspector opens is the Stream Deck app's own socket on loopback.
    const external = (source.match(/(?:https?:|wss?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}[^\s"'<>)]*/gi) ?? []).filter((url) => !url.includes('127.0.0.1'));
    expect(external).toEqual([]);
  });
});
