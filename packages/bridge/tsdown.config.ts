import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { defineConfig, type UserConfig } from 'tsdown';

const RAW = '?raw';

/**
 * `import text from './file?raw'` gives the file's text, put into the bundle at build time (as vitest does for
 * the tests): the show report inlines uPlot and its own page script and styles, and the published package must not
 * read node_modules when it runs on a show machine.
 */
const rawText: NonNullable<UserConfig['plugins']> = {
  name: 'stagelink-raw-text',
  async resolveId(source: string, importer: string | undefined) {
    if (!source.endsWith(RAW)) return null;
    const resolved = await this.resolve(source.slice(0, -RAW.length), importer, { skipSelf: true });
    return resolved ? `${resolved.id}${RAW}` : null;
  },
  async load(id: string) {
    if (!id.endsWith(RAW)) return null;
    const path = id.slice(0, -RAW.length);
    this.addWatchFile(path);
    return { code: `export default ${JSON.stringify(await readFile(path, 'utf8'))};`, moduleType: 'js' };
  },
};

// prom-client requires @opentelemetry/api, whose CommonJS build is itself a bundle that names its locals
// `require_<module>`: bundled again, those names collide with the bundler's own module functions and the bridge
// dies at load ("Cannot access 'require_types' before initialization"). Its ES module build bundles cleanly.
const promClient = createRequire(createRequire(import.meta.url).resolve('prom-client'));
const openTelemetryEsm = promClient.resolve('@opentelemetry/api').replace(/\.cjs$/, '.mjs');

// ESM for Node (the target comes from package.json's engines), with types and source maps. Self-contained: core,
// mqtt, prom-client and what they use are bundled in (nothing is in `dependencies`), so the package installs with
// the network cut off, as a venue's show network is. ws's optional native helpers stay out: ws runs without them.
export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts', 'src/testing.ts', 'src/report-cli.ts'],
  dts: true,
  sourcemap: true,
  alias: { '@opentelemetry/api': openTelemetryEsm },
  plugins: [rawText],
  deps: { neverBundle: ['bufferutil', 'utf-8-validate'], onlyBundle: false },
});
