/**
 * The manifest as the Stream Deck app and the marketplace read it: a product name, an author, a support link,
 * images in the sizes they ask for, and titles only where an operator may set one.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLUGIN_DIR } from '../harness/fake-stream-deck.js';

interface ManifestState {
  Image: string;
  ShowTitle?: boolean;
}

interface ManifestAction {
  UUID: string;
  Name: string;
  Icon: string;
  UserTitleEnabled?: boolean;
  PropertyInspectorPath?: string;
  States: ManifestState[];
  Encoder?: { Icon?: string };
}

interface Manifest {
  Name: string;
  Author: string;
  Category?: string;
  CategoryIcon?: string;
  Icon: string;
  URL?: string;
  SupportURL?: string;
  Actions: ManifestAction[];
}

const manifest = JSON.parse(readFileSync(join(PLUGIN_DIR, 'manifest.json'), 'utf8')) as Manifest;
const nodeRedPackage = JSON.parse(readFileSync(join(PLUGIN_DIR, '..', '..', '..', 'packages', 'node-red', 'package.json'), 'utf8')) as {
  bugs: { url: string };
};

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(file: string): [number, number] {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

/** An image path of the manifest (extension omitted) as the file the app loads: SVG first, else PNG. */
function imageFile(path: string): string {
  const svg = join(PLUGIN_DIR, `${path}.svg`);
  return existsSync(svg) ? svg : join(PLUGIN_DIR, `${path}.png`);
}

describe('the manifest', () => {
  it('names the product and its author with a capital, groups the actions under that name, and links to support', () => {
    expect(manifest.Name).toBe('Stagelink');
    expect(manifest.Author).toBe('Stagelink');
    expect(manifest.Category).toBe(manifest.Name);
    expect(manifest.SupportURL).toBe(nodeRedPackage.bugs.url);
  });

  it("has a plugin icon of 256 px and 512 px (@2x), as Elgato's guidelines ask", () => {
    // `streamdeck validate` does not check these sizes: this test does.
    expect(pngSize(join(PLUGIN_DIR, `${manifest.Icon}.png`))).toEqual([256, 256]);
    expect(pngSize(join(PLUGIN_DIR, `${manifest.Icon}@2x.png`))).toEqual([512, 512]);
  });

  it('has every action, key, dial and category image, scalable or with a @2x twice its size', () => {
    const images = [
      manifest.CategoryIcon ?? '',
      ...manifest.Actions.flatMap((action) => [action.Icon, ...action.States.map((state) => state.Image), action.Encoder?.Icon ?? '']),
    ].filter((path) => path !== '');
    for (const image of images) {
      const file = imageFile(image);
      expect(existsSync(file), image).toBe(true);
      if (file.endsWith('.png')) {
        const [width] = pngSize(file);
        expect(pngSize(join(PLUGIN_DIR, `${image}@2x.png`)), image).toEqual([width * 2, width * 2]);
      } else {
        expect(readFileSync(file, 'utf8'), image).toMatch(/viewBox="0 0 \d+ \d+"/);
      }
    }
  });

  it('has a settings page for every action, each written by the build from its source in src/inspector/pages/', () => {
    for (const action of manifest.Actions) {
      const page = /^ui\/([a-z-]+\.html)$/.exec(action.PropertyInspectorPath ?? '')?.[1];
      expect(page, action.UUID).toBeDefined();
      expect(existsSync(join(PLUGIN_DIR, '..', 'src', 'inspector', 'pages', page ?? '')), action.UUID).toBe(true);
    }
  });

  it('lets an operator relabel transport cues, and keeps titles off the keys that show live values', () => {
    const byName = new Map(manifest.Actions.map((action) => [action.UUID.split('.').at(-1), action]));
    const transport = byName.get('transport');
    expect(transport?.UserTitleEnabled).toBe(true);
    // An empty title draws nothing; a title the operator types shows without a second switch to find.
    expect(transport?.States.every((state) => state.ShowTitle === true)).toBe(true);
    for (const live of ['fps', 'health', 'level', 'clock']) expect(byName.get(live)?.UserTitleEnabled, live).toBe(false);
  });

  it('declares for every action whether it may be a Key Logic step: transport cues may, keys that show live values not', () => {
    for (const action of manifest.Actions) {
      const expected = action.UUID.endsWith('.transport');
      expect((action as { SupportedInKeyLogicActions?: unknown }).SupportedInKeyLogicActions, action.UUID).toBe(expected);
      // A Key Logic step is a step like a multi-action's: the same actions take part in both.
      expect((action as { SupportedInMultiActions?: unknown }).SupportedInMultiActions ?? true, action.UUID).toBe(expected);
    }
  });
});
