import { createRequire } from 'node:module';
import { defineConfig } from 'tsdown';

// prom-client requires @opentelemetry/api, whose CommonJS build is itself a bundle that names its locals
// `require_<module>`: bundled again, those names collide with the bundler's own module functions and the bridge
// dies at load ("Cannot access 'require_types' before initialization"). Its ES module build bundles cleanly.
const promClient = createRequire(createRequire(import.meta.url).resolve('prom-client'));
const openTelemetryEsm = promClient.resolve('@opentelemetry/api').replace(/\.cjs$/, '.mjs');

// ESM for Node (the target comes from package.json's engines), with types and source maps. Self-contained: core,
// mqtt, prom-client and what they use are bundled in (nothing is in `dependencies`), so the package installs with
// the network cut off, as a venue's show network is. ws's optional native helpers stay out: ws runs without them.
export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts', 'src/testing.ts'],
  dts: true,
  sourcemap: true,
  alias: { '@opentelemetry/api': openTelemetryEsm },
  deps: { neverBundle: ['bufferutil', 'utf-8-validate'], onlyBundle: false },
});
