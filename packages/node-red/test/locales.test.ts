import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Every node's message catalogs and help, as the sources hold them: en-US and each other language, key for key. */
const nodes = new URL('../src/nodes/', import.meta.url);
const types = readdirSync(nodes, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
const LANGUAGES = ['de'];

function keysOf(tree: unknown, prefix = ''): string[] {
  if (typeof tree !== 'object' || tree === null) return [prefix];
  return Object.entries(tree).flatMap(([key, value]) => keysOf(value, prefix === '' ? key : `${prefix}.${key}`));
}

const catalog = (type: string, language: string): unknown => JSON.parse(readFileSync(new URL(`${type}/locales/${language}/${type}.json`, nodes), 'utf8'));

const help = (type: string, language: string): URL => new URL(`${type}/locales/${language}/${type}.html`, nodes);
/** The nodes whose help has an en-US page: each language must give them a page of its own. */
const helped = types.filter((type) => existsSync(help(type, 'en-US')));
/** A part of the help kept once per language in src/help/ and written into each page by the build. */
const HELP_PART = /<!-- stagelink:([a-z-]+) -->/g;

/** What a translation must keep from the en-US help: its name, its shape, and every code text (names and values). */
function outline(html: string) {
  const count = (tag: string): number => html.match(new RegExp(`<${tag}[\\s>]`, 'g'))?.length ?? 0;
  const codes = [...html.matchAll(/<code>([\s\S]*?)<\/code>/g)].map(([, text]) => (text ?? '').replace(/\s+/g, ' ').trim());
  return {
    name: /<script type="text\/html" data-help-name="([^"]*)">/.exec(html)?.[1],
    headings: count('h3'),
    dt: count('dt'),
    dd: count('dd'),
    codes: [...new Set(codes)].sort(),
    parts: [...html.matchAll(HELP_PART)].map(([, part]) => part),
  };
}

describe.each(LANGUAGES)('the %s locale', (language) => {
  it.each(types)('%s has every en-US key and no other', (type) => {
    expect(keysOf(catalog(type, language)).sort()).toEqual(keysOf(catalog(type, 'en-US')).sort());
  });

  it.each(types)('%s has only text values', (type) => {
    const values = keysOf(catalog(type, language)).map((key) => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], catalog(type, language)));
    for (const value of values) expect(typeof value).toBe('string');
  });

  it('gives help to some nodes', () => {
    expect(helped.length).toBeGreaterThan(0);
  });

  it.each(helped)('%s has a help page with the en-US name, headings, <dt>, <dd> and <code> texts', (type) => {
    expect(existsSync(help(type, language)), `${type}/locales/${language}/${type}.html`).toBe(true);
    const own = outline(readFileSync(help(type, language), 'utf8'));
    const english = outline(readFileSync(help(type, 'en-US'), 'utf8'));
    expect(own.name).toBe(type);
    expect(own).toEqual(english);
  });

  it('is copied to dist next to en-US by the build', () => {
    for (const type of types) expect(existsSync(new URL(`../dist/nodes/locales/${language}/${type}.json`, import.meta.url)), type).toBe(true);
    for (const type of helped) {
      const built = new URL(`../dist/nodes/locales/${language}/${type}.html`, import.meta.url);
      expect(existsSync(built), `${type}.html`).toBe(true);
      expect(readFileSync(built, 'utf8'), `${type}.html keeps a help part's marker`).not.toMatch(HELP_PART);
    }
  });
});
