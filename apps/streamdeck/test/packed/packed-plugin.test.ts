/**
 * The packed plugin as the Stream Deck app and the marketplace receive it (release/*.streamDeckPlugin, a zip
 * written by `pnpm pack:plugin`): small, minified, without source maps or logs, and with everything the
 * manifest and the locale files promise.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PLUGIN_DIR, PLUGIN_UUID } from '../harness/fake-stream-deck.js';

const PACKED = join(PLUGIN_DIR, '..', 'release', `${PLUGIN_UUID}.streamDeckPlugin`);
const ROOT = `${PLUGIN_UUID}.sdPlugin/`;
const ONE_MB = 1_000_000;

interface ZipEntry {
  name: string;
  size: number;
  read(): Buffer;
}

/** The entries of a zip file, from its central directory (no zip64: the plugin is far below 4 GB). */
function zipEntries(zip: Buffer): ZipEntry[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error(`${PACKED} is not a zip file.`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`Broken central directory at ${at}.`);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    entries.push({
      name,
      size,
      read: () => {
        const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
        const data = zip.subarray(start, start + compressed);
        return method === 8 ? inflateRawSync(data) : Buffer.from(data);
      },
    });
  }
  return entries;
}

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
