import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLUGIN_DIR } from '../harness/fake-stream-deck.js';
import { LANGUAGES, readLocale, sentenceAt, translateIn, type LocaleFile } from './locales.js';

interface Manifest {
  Name: string;
  Description: string;
  Category: string;
  Actions: { UUID: string; Name: string; Tooltip: string }[];
}

const manifest = JSON.parse(readFileSync(join(PLUGIN_DIR, 'manifest.json'), 'utf8')) as Manifest;
const english = readLocale('en');

/** Every key of a locale file, nested ones as `outer/inner`. */
function keysOf(file: LocaleFile, prefix = ''): string[] {
  return Object.entries(file).flatMap(([key, value]) => (typeof value === 'string' ? [prefix + key] : keysOf(value, `${prefix}${key}/`))).sort();
}

function valueAt(file: LocaleFile, path: string): string {
  let value: string | LocaleFile | undefined = file;
  for (const part of path.split('/')) value = typeof value === 'object' ? value[part] : undefined;
  return typeof value === 'string' ? value : '';
}

const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '').sort();

/** The sentence keys the plugin's code names, as written in src/ (`'inspector.…'`). */
function keysUsedInCode(): string[] {
  const dir = join(PLUGIN_DIR, '..', 'src');
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  const keys = files.flatMap((file) => [...readFileSync(join(dir, file), 'utf8').matchAll(/'(inspector\.[\w.]+)'/g)].map((match) => match[1] ?? ''));
  return [...new Set(keys)];
}

describe('the locale files', () => {
  it('ships English, German, French, Spanish and Japanese next to the manifest', () => {
    const files = readdirSync(PLUGIN_DIR).filter((file) => /^[a-z]{2}(_[A-Z]{2})?\.json$/.test(file));
    expect(files.sort()).toEqual(LANGUAGES.map((language) => `${language}.json`).sort());
  });

  it.each(LANGUAGES.filter((language) => language !== 'en'))('%s has exactly the keys of en.json, each with its placeholders', (language) => {
    const locale = readLocale(language);
    expect(keysOf(locale)).toEqual(keysOf(english));
    for (const key of keysOf(english)) {
      expect(valueAt(locale, key).trim(), `${language} ${key}`).not.toBe('');
      expect(placeholders(valueAt(locale, key)), `${language} ${key}`).toEqual(placeholders(valueAt(english, key)));
    }
  });

  it("says in English what the manifest says, for the plugin and every action", () => {
    expect(english).toMatchObject({ Name: manifest.Name, Description: manifest.Description, Category: manifest.Category });
    for (const action of manifest.Actions) expect(english[action.UUID], action.UUID).toEqual({ Name: action.Name, Tooltip: action.Tooltip });
  });

  it('has a sentence for every key the plugin asks for', () => {
    const used = [...keysUsedInCode(), 'inspector.role.director', 'inspector.role.actor', 'inspector.role.understudy'];
    expect(used.length).toBeGreaterThan(10);
    expect(used.filter((key) => sentenceAt(english, key) === undefined)).toEqual([]);
  });

  it('fills placeholders, and leaves one without a value as written', () => {
    const german = translateIn('de');
    expect(german('inspector.directorMoved', { to: 'media-2', from: 'media-1' })).toBe('Director gewechselt zu media-2 (vorher media-1).');
    expect(german('inspector.noteAt', { text: 'Blackout' })).toBe('Blackout (bei {time} s)');
    expect(german('no.such.key')).toBe('no.such.key');
  });
});
