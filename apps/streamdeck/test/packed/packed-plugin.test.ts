/**
 * The packed plugin as the Stream Deck app and the marketplace receive it (release/*.streamDeckPlugin, a zip
 * written by `pnpm pack:plugin`): small, minified, without source maps or logs, and with everything the
 * manifest and the locale files promise.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PACKED, PLUGIN_ROOT as ROOT, zipEntries } from './packed-plugin.js';

const ONE_MB = 1_000_000;

describe('the packed plugin', () => {
  it('has been packed (run `pnpm pack:plugin` first)', () => {
    expect(existsSync(PACKED)).toBe(true);
  });

  const zip = existsSync(PACKED) ? readFileSync(PACKED) : Buffer.alloc(0);
  const entries = existsSync(PACKED) ? zipEntries(zip) : [];
  const names = entries.map((entry) => entry.name.slice(ROOT.length)).filter((name) => name !== '' && !name.endsWith('/'));

  it('is under 1 MB', () => {
    expect(zip.length).toBeGreaterThan(0);
    expect(zip.length).toBeLessThan(ONE_MB);
  });

  it('carries no source map and no log', () => {
    expect(names.filter((name) => name.endsWith('.map') || name.startsWith('logs/'))).toEqual([]);
  });

  it('carries the bundle, the manifest, the locale files, the settings pages and the touch-strip layout', () => {
    expect(entries.every((entry) => entry.name.startsWith(ROOT))).toBe(true);
    expect(names).toEqual(
      expect.arrayContaining([
        'manifest.json',
        'bin/plugin.js',
        'bin/package.json',
        'bin/transport-commands.js',
        ...['en', 'de', 'fr', 'es', 'ja'].map((language) => `${language}.json`),
        'ui/inspector.js',
        'ui/transport.html',
        'layouts/level.json',
        'imgs/plugin/marketplace.png',
        'imgs/plugin/marketplace@2x.png',
      ]),
    );
  });

  it('has a minified bundle that points at no source map', () => {
    const bundle = entries.find((entry) => entry.name === `${ROOT}bin/plugin.js`);
    const source = bundle?.read().toString('utf8') ?? '';
    expect(source.length).toBeGreaterThan(100_000);
    expect(source.includes('sourceMappingURL')).toBe(false);
    // An unminified bundle has a line break every 30 to 40 characters; a minified one has few.
    expect(source.split('\n').length).toBeLessThan(source.length / 500);
  });
});
