/** A server that goes away turns the status, the variables and the feedbacks to no link, and back (both dialects). */
import type { Simulator } from '@stagelink/simulator';
import { afterEach, expect, it } from 'vitest';
import type { CompanionHost } from '../harness/testing.js';
import { startModule, startSim, untilReady } from './session.js';

let sim: Simulator | undefined;
let host: CompanionHost | undefined;

afterEach(async () => {
  await host?.destroy();
  await sim?.close();
});

it('shows no link while the server is gone, never the last values as live, and recovers by itself', async () => {
  sim = await startSim();
  const port = Number(new URL(sim.mediaServer.url).port);
  const module = await startModule(sim);
  host = module;
  await untilReady(module);
  const link = module.placeFeedback('link');
  const stale = module.placeFeedback('stale');
  const fps = Object.keys(module.variableDefinitions).find((id) => id.endsWith('_fps')) ?? '';
  await module.waitFor(() => typeof module.variables.get(fps) === 'number', 'a live FPS');
  await module.waitFor(() => module.feedback(link) === false, 'link feedback off');

  await sim.close();

  await module.waitFor(() => module.status?.status === 'disconnected', 'status disconnected');
  await module.waitFor(() => module.variables.get(fps) === 'no link', 'FPS shown as no link');
  await module.waitFor(() => module.feedback(link) === true, 'link feedback on');
  expect(module.feedback(stale)).toBe(true);
  expect(module.variables.get('link')).toBe('no link');

  sim = await startSim(port);

  await module.waitFor(() => module.status?.status === 'ok', 'status ok again', 30_000);
  await module.waitFor(() => typeof module.variables.get(fps) === 'number', 'live FPS again', 30_000);
  await module.waitFor(() => module.feedback(link) === false, 'link feedback off again');
});
