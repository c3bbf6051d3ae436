/**
 * Companion sends new settings and destroy without waiting for the change before: whatever the order, one
 * connection at most is left, and none once the module is destroyed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { endpoints } from '@stagelink/core';
import { expect } from 'vitest';
import { configFor, untilReady, withReadyModule } from './session.js';

withReadyModule('leaves no connection polling or subscribed after settings changed twice and a destroy, sent together', async ({ sim, host }) => {
  const config = configFor(sim);

  await Promise.all([host.configUpdated(config), host.configUpdated({ ...config, frameRate: 50 }), host.destroy()]);

  await host.waitFor(() => sim.live.stats().sockets === 0, 'every live socket closed');
  const transportsRead = sim.arrivals.count('GET', endpoints.transports.path);
  // The transports are read every second while a connection is open.
  await sleep(3000);
  expect(sim.arrivals.count('GET', endpoints.transports.path)).toBe(transportsRead);
  expect(sim.live.stats().sockets).toBe(0);
});

withReadyModule('runs the last settings sent when two arrive together', async ({ sim, host }) => {
  const config = configFor(sim);

  await Promise.all([host.configUpdated({ ...config, host: 'http://127.0.0.1:1' }), host.configUpdated(config)]);

  await untilReady(host);
  // A show on the first settings, started late, would turn the status to a connection failure.
  await sleep(2000);
  expect(host.status?.status).toBe('ok');
});
