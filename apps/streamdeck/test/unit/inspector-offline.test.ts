import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PLUGIN_DIR } from '../harness/fake-stream-deck.js';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
/** The shipped scripts and styles, and the pages' sources: the build writes the pages from them alone. */
const FOLDERS = [join(PLUGIN_DIR, 'ui'), join(PACKAGE_DIR, 'src', 'inspector', 'pages')];
const files = FOLDERS.flatMap((folder) =>
  readdirSync(folder)
    .filter((file) => /\.(html|js|css)$/.test(file))
    .map((file) => relative(PACKAGE_DIR, join(folder, file))),
);

describe('the property inspectors at an air-gapped desk', () => {
  it('has pages to check', () => {
    expect(files).toEqual(expect.arrayContaining(['src/inspector/pages/page.html', 'src/inspector/pages/transport.html', 'com.stagelink.mediaserver.sdPlugin/ui/inspector.js']));
  });

  it.each(files)('%s loads nothing from the network (no CDN, no external URL)', (file) => {
    const source = readFileSync(join(PACKAGE_DIR, file), 'utf8');
    // The one address an inspector opens is the Stream Deck app's own socket on loopback.
    const external = (source.match(/(?:https?:|wss?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}[^\s"'<>)]*/gi) ?? []).filter((url) => !url.includes('127.0.0.1'));
    expect(external).toEqual([]);
  });
});
