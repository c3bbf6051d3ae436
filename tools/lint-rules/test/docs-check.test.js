import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkDocs, headingAnchors, REPO_ROOT } from '../docs-check.js';

// Spelled in parts: written whole, this file would name it in the code, and the check would find it there.
const MADE_UP_NAME = ['STAGELINK', 'MADE', 'UP'].join('_');
const fixture = (name) => join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'docs', name);

describe('the docs check', () => {
  it('finds nothing wrong in the repository\'s READMEs, docs pages and INSTALL.md', () => {
    expect(checkDocs({ root: REPO_ROOT })).toEqual([]);
  });

  it('passes a page whose flags, names, links and versions are all real', () => {
    expect(checkDocs({ root: REPO_ROOT, docsRoot: fixture('good') })).toEqual([]);
  });

  it('fails a made-up flag, a mistyped one, an unknown name, a broken link and a wrong version, each with its line', () => {
    expect(checkDocs({ root: REPO_ROOT, docsRoot: fixture('made-up') })).toEqual([
      'README.md:4: stagelink-bridge has no flag --made-up-flag (packages/bridge/src/cli-args.ts)',
      'README.md:7: pnpm start has no flag --lisen (tools/venue/lib/start-options.mjs)',
      'README.md:7: --osc-sendd is a flag of no stagelink command (stagelink-bridge, stagelink-sim, stagelink-report, pnpm start)',
      `README.md:7: ${MADE_UP_NAME} is named nowhere in the code`,
      'README.md:8: link to docs/venue.md: no such file',
      'README.md:8: link to #ports: README.md has no heading with the anchor #ports',
      'README.md:8: Node-RED 4.0 or later: the nodes ask for Node-RED >=4.1.0 <6.0.0 (packages/node-red/package.json)',
      'README.md:8: Companion 4.2 or later: the module is on @companion-module/base 2.0, which Companion 4.3 and later host',
    ]);
  });

  it('names headings as the rendered page anchors them', () => {
    expect([...headingAnchors('# The `--record` flag\n## Ports, and addresses\n## Ports, and addresses\n```\n# not a heading\n```\n')]).toEqual([
      'the---record-flag',
      'ports-and-addresses',
      'ports-and-addresses-1',
    ]);
  });
});
