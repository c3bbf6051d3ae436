import { readFileSync } from 'node:fs';

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
      const found = path.split('.').reduce<unknown>((node, part) => (node as Catalog | undefined)?.[part], catalog);
      return typeof found === 'string' ? found.replace(/__(\w+)__/g, (whole, name: string) => String(values[name] ?? whole)) : key;
    },
  };
}
