/**
 * Text the plugin writes for the operator outside the key faces (the settings pages' connection line and
 * dropdowns), in the Stream Deck app's language. The sentences live in the locale files next to the manifest
 * (en.json, de.json, ... under "Localization"); the plugin reads them through the SDK's `streamDeck.i18n`,
 * which falls back to English and then to the key itself.
 */

/** Looks a sentence up by its key in the app's language. */
export type Lookup = (key: string) => string;

export type TextValues = Record<string, string | number>;

/** A sentence with its `{name}` placeholders filled in; a placeholder without a value stays as written. */
export type Translate = (key: string, values?: TextValues) => string;

export function translator(lookup: Lookup): Translate {
  return (key, values = {}) => lookup(key).replace(/\{(\w+)\}/g, (placeholder, name: string) => (name in values ? String(values[name]) : placeholder));
}
