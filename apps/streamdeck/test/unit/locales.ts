/** The plugin's locale files (en.json, de.json, ... next to the manifest), read as the SDK reads them. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { translator, type Translate } from '../../src/i18n.js';
import { PLUGIN_DIR } from '../harness/fake-stream-deck.js';

/** The languages the plugin ships, English first: every other one has exactly English's keys. */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];

export interface LocaleFile {
  [key: string]: string | LocaleFile;
}

export function readLocale(language: Language): LocaleFile {
  return JSON.parse(readFileSync(join(PLUGIN_DIR, `${language}.json`), 'utf8')) as LocaleFile;
}

/** The sentence at a dotted key (`inspector.machines.one`) of a locale's "Localization", as the SDK looks it up. */
export function sentenceAt(file: LocaleFile, key: string): string | undefined {
  let value: string | LocaleFile | undefined = file.Localization;
  for (const part of key.split('.')) value = typeof value === 'object' ? value[part] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** The plugin's sentences in one language, as `streamDeck.i18n` gives them (the key itself when missing). */
export function translateIn(language: Language): Translate {
  const file = readLocale(language);
  return translator((key) => sentenceAt(file, key) ?? key);
}

export const english = translateIn('en');
