/**
 * `@stagelink/streamdeck/packed`: the packed plugin (release/*.streamDeckPlugin, a zip written by
 * `pnpm pack:plugin`), read as the Stream Deck app reads it, and unpacked into a folder to launch the bundle
 * exactly as it ships.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { PLUGIN_DIR, PLUGIN_UUID } from '../harness/fake-stream-deck.js';

export const PACKED = join(PLUGIN_DIR, '..', 'release', `${PLUGIN_UUID}.streamDeckPlugin`);
/** The folder every entry of the packed plugin sits in. */
export const PLUGIN_ROOT = `${PLUGIN_UUID}.sdPlugin/`;

export interface ZipEntry {
  name: string;
  size: number;
  read(): Buffer;
}

/** The entries of a zip file, from its central directory (no zip64: the plugin is far below 4 GB). */
export function zipEntries(zip: Buffer): ZipEntry[] {
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

/** Writes the packed plugin's files into `dir` and answers the plugin folder in it, ready to launch. */
export function unpackPlugin(dir: string): string {
  for (const entry of zipEntries(readFileSync(PACKED))) {
    if (entry.name.endsWith('/')) continue;
    const file = join(dir, entry.name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, entry.read());
  }
  return join(dir, PLUGIN_ROOT);
}
