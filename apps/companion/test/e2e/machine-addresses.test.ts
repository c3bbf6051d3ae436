/**
 * The machine addresses setting (core's hosts map) with a line whose address is none, in a session of real servers:
 * the connection says which line at once, as bad_config, and runs as soon as the line is fixed.
 */
import { endpoints } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import { afterEach, expect, it } from 'vitest';
import type { CompanionHost } from '../harness/testing.js';
import { configFor, startModule, startSim, untilReady } from './session.js';

let sim: Simulator | undefined;
let module: CompanionHost | undefined;

afterEach(async () => {
  await module?.destroy();
  module = undefined;
  await sim?.close();
  sim = undefined;
});

/** Where each machine of the session is, one HOSTNAME=address a line, as a user types them. */
const hostsOf = (from: Simulator): string => from.machines().map(({ hostname, url }) => `${hostname}=${new URL(url).host}`).join('\n');

it('reports bad_config naming a machine address line whose address is none, and runs once the line is fixed', async () => {
  sim = await startSim(0, { scenario: 'session' });
  const actor = sim.machines().find(({ role }) => role === 'actor');
  if (!actor) throw new Error('the session has an actor');
  module = await startModule(sim, { host: actor.url, hosts: `${hostsOf(sim)}\nACTOR01=10.0.0.256` });

  const named = 'Machine addresses: The address given for ACTOR01 in hosts ("10.0.0.256") is not an address or address:port';
  expect(module.status).toEqual({ status: 'bad_config', message: expect.stringContaining(named) as unknown });
  await expect(module.runAction('play', { transport: 'main' })).rejects.toThrow(named);
  const cues = sim.arrivals.count('POST', endpoints.play.path);

  await module.configUpdated(configFor(sim, { host: actor.url, hosts: hostsOf(sim) }));
  await untilReady(module);
  await module.runAction('play', { transport: 'main' });
  expect(sim.arrivals.count('POST', endpoints.play.path)).toBe(cues + 1);
});
