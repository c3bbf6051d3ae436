import { readdirSync } from 'node:fs';
import { defineConfig } from 'tsdown';

/** One CommonJS entry per node type: src/nodes/<type>/<type>.ts becomes dist/nodes/<type>.js. */
const nodeTypes = readdirSync('src/nodes', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default defineConfig({
  entry: Object.fromEntries(nodeTypes.map((type) => [`nodes/${type}`, `src/nodes/${type}/${type}.ts`])),
  // Node-RED 4 requires node files and Node-RED 5 imports them: plain CommonJS .js works for both.
  format: ['cjs'],
  platform: 'node',
  target: 'node20',
  dts: false,
  sourcemap: false,
  clean: true,
  // Self-contained: core (and its undici and ws) is bundled into one shared chunk that every node file
  // requires, so one copy of core is loaded and the package installs with no dependencies (see README).
  // (Nothing is in `dependencies`, so everything imported is bundled; ws's optional native helpers stay out.)
  deps: { neverBundle: ['bufferutil', 'utf-8-validate'], onlyBundle: false },
  outExtensions: () => ({ js: '.js' }),
  outputOptions: {
    chunkFileNames: 'lib/shared-[hash].js',
  },
});
