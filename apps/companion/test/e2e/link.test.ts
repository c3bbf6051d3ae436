/**
 * A server that goes away turns the status to connection_failure and the variables and feedbacks to no link, and
 * back; a server that answers while its live stream is down is a warning that cues work (both dialects).
 */
import type { Simulator } from '@stagelink/simulator';
import { afterEach, expect, it } from 'vitest';
import type { CompanionHost } from '../harness/testing.js';
import { control, startModule, startSim, untilReady } from './session.js';

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
  const role = Object.keys(module.variableDefinitions).find((id) => id.endsWith('_role')) ?? '';
  await module.waitFor(() => typeof module.variables.get(fps) === 'number', 'a live FPS');
  await module.waitFor(() => module.feedback(link) === false, 'link feedback off');
  expect(['director', 'actor', 'understudy']).toContain(module.variables.get(role));

  await sim.close();

  await module.waitFor(() => module.status?.status === 'connection_failure', 'status connection_failure');
  await module.waitFor(() => module.variables.get(fps) === 'no link', 'FPS shown as no link');
  await module.waitFor(() => module.feedback(link) === true, 'link feedback on');
  expect(module.feedback(stale)).toBe(true);
  expect(module.variables.get('link')).toBe('no link');
  // A machine's role is what the session read said: with no read, the machine may hold another by now.
  await module.waitFor(() => module.variables.get(role) === 'no link', 'role shown as no link');

  sim = await startSim(port);

  await module.waitFor(() => module.status?.status === 'ok', 'status ok again', 30_000);
  await module.waitFor(() => typeof module.variables.get(fps) === 'number', 'live FPS again', 30_000);
  await module.waitFor(() => module.feedback(link) === false, 'link feedback off again');
  const roles: unknown[] = ['director', 'actor', 'understudy'];
  await module.waitFor(() => roles.includes(module.variables.get(role)), 'a role again');
});

it('warns, never "cannot be reached", while the live stream is down and the server still answers, and cues still land', async () => {
  sim = await startSim();
  const module = await startModule(sim);
  host = module;
  await untilReady(module);
  const link = module.placeFeedback('link');
  const transport = sim.state.transports.list()[0]?.name ?? '';

  await control(sim, { action: 'refuseUpgrades', on: true });
  await control(sim, { action: 'dropSockets' });

  await module.waitFor(() => module.status?.status === 'unknown_warning', 'a warning status');
  expect(module.status?.message).toMatch(/answers and cues work, but live updates are down/);
  await module.waitFor(() => module.variables.get('link') === 'live down', 'link variable live down');
  expect(module.feedback(link)).toBe(false);
  expect(module.statuses.some(({ status }) => status === 'disconnected' || status === 'connection_failure')).toBe(false);
  const result = await module.executeAction('stop', { transport });
  expect(result).toEqual({ success: true, errorMessage: undefined });

  await control(sim, { action: 'refuseUpgrades', on: false });

  await module.waitFor(() => module.status?.status === 'ok', 'status ok again', 30_000);
  await module.waitFor(() => module.variables.get('link') === 'ok', 'link variable ok again');
});
