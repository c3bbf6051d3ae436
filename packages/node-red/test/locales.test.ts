import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Every node's message catalogs, as the sources hold them: en-US and each other language, key for key. */
const nodes = new URL('../src/nodes/', import.meta.url);
const types = readdirSync(nodes, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
const LANGUAGES = ['de'];

function keysOf(tree: unknown, prefix = ''): string[] {
  if (typeof tree !== 'object' || tree === null) return [prefix];
  return Object.entries(tree).flatMap(([key, value]) => keysOf(value, prefix === '' ? key : `${prefix}.${key}`));
}

const catalog = (type: string, language: string): unknown => JSON.parse(readFileSync(new URL(`${type}/locales/${language}/${type}.json`, nodes), 'utf8'));

describe.each(LANGUAGES)('the %s locale', (language) => {
  it.each(types)('%s has every en-US key and no other', (type) => {
    expect(keysOf(catalog(type, language)).sort()).toEqual(keysOf(catalog(type, 'en-US')).sort());
  });

  it.each(types)('%s has only text values', (type) => {
    const values = keysOf(catalog(type, language)).map((key) => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], catalog(type, language)));
    for (const value of values) expect(typeof value).toBe('string');
  });

  it('is copied to dist next to en-US by the build', () => {
    for (const type of types) expect(existsSync(new URL(`../dist/nodes/locales/${language}/${type}.json`, import.meta.url)), type).toBe(true);
  });
});
