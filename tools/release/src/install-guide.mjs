// INSTALL.md of a bundle: the template beside this tool, with the version and the bundle's file names filled in.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TEMPLATE = join(dirname(fileURLToPath(import.meta.url)), '..', 'INSTALL.md');

/** `{{version}}` and `{{<artefact id>}}` (e.g. `{{stagelink-bridge}}`, `{{streamdeck}}`) become their values. */
export function installGuide(version, layout) {
  const names = Object.fromEntries(layout.files.map(({ artefact, file }) => [artefact.id, file]));
  return readFileSync(TEMPLATE, 'utf8').replace(/\{\{([\w-]+)\}\}/g, (placeholder, key) => {
    const value = key === 'version' ? version : names[key];
    if (value === undefined) throw new Error(`INSTALL.md names ${placeholder}, which no artefact of the bundle is.`);
    return value;
  });
}
