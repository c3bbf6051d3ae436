import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export type Catalog = Record<string, unknown>;

/** The server config node's catalog in `language`, as the package's sources hold it. */
export const catalogOf = (language: string): Catalog =>
  JSON.parse(readFileSync(new URL(`../../src/nodes/stagelink-server/locales/${language}/stagelink-server.json`, import.meta.url), 'utf8')) as Catalog;

/** What Node-RED's i18n answers for a namespaced key: the words of the runtime's language, or the key itself. */
export function runtimeIn(language: string): { _: (key: string, values?: Record<string, string | number>) => string } {
  const catalog = catalogOf(language);
  return {
    _: (key, values = {}) => {
      const [namespace, path] = key.split(':');
      if (namespace !== '@stagelink/node-red/stagelink-server' || !path) return key;
      const lookUp = (words: string) => words.split('.').reduce<unknown>((node, part) => (node as Catalog | undefined)?.[part], catalog);
      // As i18next: the plural words for a count other than 1, where the catalog has them.
      const found = (typeof values['count'] === 'number' && values['count'] !== 1 ? lookUp(`${path}_plural`) : undefined) ?? lookUp(path);
      return typeof found === 'string' ? found.replace(/__(\w+)__/g, (whole, name: string) => String(values[name] ?? whole)) : key;
    },
  };
}

/** Node-RED's own translator (@node-red/util's i18n), as the runtime runs it, with the package's server catalog. */
export interface NodeRedWords {
  /** A translator as the runtime hands nodes: `RED._`, answering in the language last set. */
  _: (key: string, values?: Record<string, string | number>) => string;
  speak(language: string): void;
}

const fromNodeRed = createRequire(createRequire(import.meta.url).resolve('node-red'));

/**
 * Node-RED's i18n with the server node's catalog registered from the sources, its language switched per call (i18next's
 * `lng`) so one process can check each language: the plural rules and fallbacks are the runtime's own.
 */
/** The languages the package ships runtime words in. */
export const LANGUAGES = ['en-US', 'de'];

export async function nodeRedWords(): Promise<NodeRedWords> {
  const { i18n } = fromNodeRed('@node-red/util') as { i18n: { init(settings: object): void; registerMessageCatalog(namespace: string, dir: string, file: string): Promise<void>; _(key: string, values: object): string; i: { loadLanguages(languages: string[]): Promise<unknown> } } };
  i18n.init({ lang: 'en-US' });
  await i18n.registerMessageCatalog('@stagelink/node-red/stagelink-server', fileURLToPath(new URL('../../src/nodes/stagelink-server/locales', import.meta.url)), 'stagelink-server.json');
  // The runtime loads its one language's words; the others are loaded here for the per-call switch.
  await i18n.i.loadLanguages(LANGUAGES);
  let language = 'en-US';
  return {
    _: (key, values = {}) => i18n._(key, { ...values, lng: language }),
    speak: (next) => (language = next),
  };
}
