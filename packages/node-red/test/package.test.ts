import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { NODE_TYPES } from './support/harness.js';

/**
 * The Flow Library scorecard's rules (node-red-dev validate: P01-P07, N02, D01) and what Node-RED needs to load
 * the package, checked on the built files.
 */
const root = new URL('..', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, root), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  name: string;
  type: string;
  license?: string;
  repository?: unknown;
  bugs?: unknown;
  keywords?: string[];
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  files: string[];
  'node-red': { version: string; nodes: Record<string, string> };
};
const CONFIG_TYPES = ['stagelink-server', 'stagelink-drive'];

describe('package.json (Flow Library scorecard)', () => {
  it('is a scoped, licensed package with a repository and the node-red keyword', () => {
    expect(pkg.name).toMatch(/^@[a-z\d][\w.-]+\/[a-z\d][\w.-]*$/);
    expect(pkg.license).toBe('MIT');
    expect(pkg.repository ?? pkg.bugs).toBeTruthy();
    expect(pkg.keywords).toContain('node-red');
    expect(existsSync(new URL('LICENSE', root))).toBe(true);
    expect(existsSync(new URL('README.md', root))).toBe(true);
  });

  it('declares the Node-RED and Node versions it runs on, and no others', () => {
    // The smoke test runs the packed tarball on Node-RED 4.1 with Node 20; the node24/ lane runs it on Node-RED 5 with Node 24.
    expect(pkg['node-red'].version).toBe('>=4.1.0 <6.0.0');
    expect(pkg.engines?.node).toBe('>=20.18.1');
    // Node-RED 4 itself runs on Node 18: the Flow Library shows keywords, so the need for Node 20 is seen before install.
    expect(pkg.keywords).toContain('node20');
  });

  it('installs with no dependencies: core is bundled', () => {
    expect(Object.keys(pkg.dependencies ?? {})).toEqual([]);
  });

  it('ships one CommonJS .js file per node with a sibling .html, as Node-RED 4 and 5 load them', () => {
    expect(pkg.type).toBe('commonjs');
    expect(Object.keys(pkg['node-red'].nodes).sort()).toEqual([...NODE_TYPES].sort());
    for (const [type, file] of Object.entries(pkg['node-red'].nodes)) {
      expect(file).toBe(`dist/nodes/${type}.js`);
      expect(existsSync(new URL(file, root))).toBe(true);
      expect(existsSync(new URL(file.replace(/\.js$/, '.html'), root))).toBe(true);
    }
    expect(pkg.files).toEqual(expect.arrayContaining(['dist', 'resources', 'examples']));
  });

  it('ships the editor helpers as a resource that every dialog using them loads first', () => {
    expect(() => new Script(read('resources/stagelink-editor.js'), { filename: 'stagelink-editor.js' })).not.toThrow();
    for (const type of NODE_TYPES) {
      const html = read(`dist/nodes/${type}.html`);
      if (!html.includes('window.StagelinkEditor')) continue;
      expect(html.startsWith(`<script type="text/javascript" src="resources/${pkg.name}/stagelink-editor.js"></script>`), type).toBe(true);
    }
  });
});

describe.each(NODE_TYPES)('%s editor files', (type) => {
  const html = read(`dist/nodes/${type}.html`);
  const scripts = [...html.matchAll(/<script type="text\/javascript">([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '');

  it('has browser JavaScript that parses and registers the type with inline definitions', () => {
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(() => new Script(script, { filename: `${type}.html` })).not.toThrow();
    const code = scripts.join('\n');
    expect(code).toMatch(new RegExp(`RED\\.nodes\\.registerType\\('${type}', \\{`));
    expect(code).toMatch(/defaults: \{/);
    expect(code).toMatch(/category: '[\w-]+'/);
    if (!CONFIG_TYPES.includes(type)) {
      expect(code).toMatch(/color: '#[0-9a-f]{6}'/);
      expect(code).toMatch(/icon: '[\w/.-]+'/);
      expect(code).toMatch(/inputs: \d/);
      expect(code).toMatch(/outputs: \d/);
    }
  });

  it('has help for the sidebar and every en-US label it uses', () => {
    const help = read(`dist/nodes/locales/en-US/${type}.html`);
    expect(help).toContain(`data-help-name="${type}"`);
    const messages = JSON.parse(read(`dist/nodes/locales/en-US/${type}.json`)) as Record<string, unknown>;
    const keys = [...html.matchAll(/data-i18n="(?:\[[a-z]+\])?([^"]+)"/g)].map((match) => match[1] ?? '').filter((key) => !key.startsWith('node-red:'));
    for (const key of keys) {
      const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], messages);
      expect(typeof value, `${type}: ${key}`).toBe('string');
    }
  });
});

describe('examples', () => {
  const files = readdirSync(new URL('examples', root)).filter((file) => file.endsWith('.json'));

  it('are importable flows that, together, use every node', () => {
    expect(files.length).toBeGreaterThan(0);
    const used = new Set<string>();
    for (const file of files) {
      const flow = JSON.parse(read(`examples/${file}`)) as { type: string; id: string }[];
      expect(Array.isArray(flow)).toBe(true);
      expect(new Set(flow.map((node) => node.id)).size).toBe(flow.length);
      for (const node of flow) used.add(node.type);
    }
    for (const type of NODE_TYPES) expect(used.has(type), type).toBe(true);
  });

  it('carry no credentials', () => {
    for (const file of files) expect(read(`examples/${file}`)).not.toMatch(/"credentials"|"token"/);
  });
});

describe('the request node', () => {
  it('offers every endpoint of core\'s catalogue in its editor', async () => {
    const { endpointList } = await import('@stagelink/core');
    const html = read('dist/nodes/stagelink-request.html');
    for (const endpoint of endpointList) expect(html).toContain(`"id":"${endpoint.id}"`);
  });
});

describe('the transport node', () => {
  it('offers core\'s playmodes in its editor, the words a director takes', async () => {
    const { PLAYMODES } = await import('@stagelink/core');
    const html = read('dist/nodes/stagelink-transport.html');
    const offered = JSON.parse(/var PLAYMODES = (\[.*?\]);/.exec(html)?.[1] ?? 'null') as unknown;
    expect(offered).toEqual(PLAYMODES.filter((playmode) => playmode !== 'NotSet'));
  });

  it('offers core\'s transport commands in its editor, each showing the fields the runtime reads for it', async () => {
    const { TRANSPORT_COMMANDS } = await import('@stagelink/core');
    const html = read('dist/nodes/stagelink-transport.html');
    const offered = JSON.parse(/var FIELDS = (\{.*?\});/.exec(html)?.[1] ?? 'null') as unknown;
    const expected = Object.fromEntries(Object.entries(TRANSPORT_COMMANDS).map(([command, { required, optional }]) => [command, [...required, ...optional]]));
    expect(offered).toEqual(expected);
    // Every field a command reads has a row in the dialog.
    for (const field of new Set(Object.values(expected).flat())) expect(html).toContain(`id="node-input-${field}"`);
  });
});

describe('the failover node', () => {
  it('offers every failover operation of core in its editor, with the machine row for those that act on one machine', async () => {
    const { FAILOVER_MACHINE_OPERATIONS, FAILOVER_OPERATIONS } = await import('@stagelink/core');
    const html = read('dist/nodes/stagelink-failover.html');
    const offered = JSON.parse(/var OPERATION_ROWS = (\{.*?\});/.exec(html)?.[1] ?? 'null') as Record<string, string[]>;
    expect(Object.keys(offered)).toEqual(Object.keys(FAILOVER_OPERATIONS));
    expect(Object.keys(offered).filter((operation) => offered[operation]?.includes('machine'))).toEqual(FAILOVER_MACHINE_OPERATIONS);
    expect(html).toContain('id="node-input-machine"');
  });
});
