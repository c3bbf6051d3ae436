// The smoke test of the packed package on Node-RED 4.1 with this Node (20): see lib/smoke-test.mjs. Node-RED 5 on
// Node 24 runs in the Node 24 lane (node24/ at the repository root). Runtimes and npm's cache stay in .smoke/.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { smokeTest } from './lib/smoke-test.mjs';

const work = join(dirname(fileURLToPath(import.meta.url)), '..', '.smoke');

try {
  await smokeTest({ work, runtimes: [{ name: 'Node-RED 4.1 on Node 20', dir: 'node-red-4.1', packages: ['node-red@~4.1.15'] }] });
} catch (error) {
  console.error(`smoke: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
