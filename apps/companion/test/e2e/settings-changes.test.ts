/**
 * Companion sends new settings and destroy without waiting for the change before: whatever the order, one
 * connection at most is left, and none once the module is destroyed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { endpoints } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import { afterEach, expect, it } from 'vitest';
import type { CompanionHost } from '../harness/testing.js';
import { configFor, startModule, startSim, untilReady } from './session.js';

let sim: Simulator | undefined;
let host: CompanionHost | undefined;

afterEach(async () => {
  await host?.destroy();
  await sim?.close();
});

it('leaves no connection polling or subscribed after settings changed twice and a destroy, sent together', async () => {
  sim = await startSim();
  const server = sim;
  const module = await startModule(server);
  host = module;
  await untilReady(module);
  const config = configFor(server);

  await Promise.all([module.configUpdated(config), module.configUpdated({ ...config, frameRate: 50 }), module.destroy()]);

  await module.waitFor(() => server.live.stats().sockets === 0, 'every live socket closed');
  const transportsRead = server.arrivals.count('GET', endpoints.transports.path);
  // The transports are read every second while a connection is open.
  await sleep(3000);
  expect(server.arrivals.count('GET', endpoints.transports.path)).toBe(transportsRead);
  expect(server.live.stats().sockets).toBe(0);
});

it('runs the last settings sent when two arrive together', async () => {
  sim = await startSim();
  const server = sim;
  const module = await startModule(server);
  host = module;
  await untilReady(module);
  const config = configFor(server);

  await Promise.all([module.configUpdated({ ...config, host: 'http://127.0.0.1:1' }), module.configUpdated(config)]);

  await untilReady(module);
  // A show on the first settings, started late, would turn the status to a connection failure.
  await sleep(2000);
  expect(module.status?.status).toBe('ok');
});
