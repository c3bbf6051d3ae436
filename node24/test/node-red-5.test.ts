/** The packed Node-RED nodes on Node-RED 5, which needs Node 22.9 or later, on Node 24. */
import { smokeTest } from '@stagelink/node-red/testing';
import { join } from 'node:path';
import { expect, inject, it } from 'vitest';
import { RUNTIME_DIR } from '../src/node24.js';

it('installs from the tarball and runs a flow on Node-RED 5 on Node 24', async () => {
  const runtimes = [{ name: 'Node-RED 5 on Node 24', dir: 'node-red-5', packages: ['node-red@5.0.7'], node: inject('node24') }];
  await expect(smokeTest({ work: join(RUNTIME_DIR, 'smoke'), runtimes })).resolves.toBeUndefined();
}, 300_000);
