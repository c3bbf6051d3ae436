/**
 * The field faults venues report, played by the simulator (both dialects): a live value that stops while the link
 * stays up shows stale, and live again with its next value (core's default timings: about 10 s each way); large
 * answers that stall after their headers while small ones arrive are a warning about the MTU, never "no link".
 */
import { variableIdOf } from '@stagelink/core';
import { describe, expect } from 'vitest';
import { control, withReadyModule } from './session.js';

/** Core reports a quiet value stale after about 10 s with its default timings; the bound is generous. */
const STALE_WITHIN_MS = 25_000;

describe('field faults', () => {

  withReadyModule('shows a machine whose FPS stopped as stale, in its variable and the stale feedback, and live again', async ({ sim, host }) => {
    const { actors, understudies } = sim.state.machines.sessionInfo();
    const [quiet, other] = [actors[0], understudies[0]];
    if (!quiet || !other) throw new Error('the demo session has an actor and an understudy');
    const [fps, otherFps] = [`machine_${variableIdOf(quiet.name)}_fps`, `machine_${variableIdOf(other.name)}_fps`];
    const stale = host.placeFeedback('stale', { subject: `machine_${variableIdOf(quiet.name)}` });
    const otherStale = host.placeFeedback('stale', { subject: `machine_${variableIdOf(other.name)}` });
    await host.waitFor(() => typeof host.variables.get(fps) === 'number' && host.feedback(stale) === false, `a live FPS of ${quiet.name}`);

    // The remote monitor's object names the machine: only its subscription goes quiet, the socket stays up.
    await control(sim, { action: 'silentLive', pattern: `${quiet.hostname}:`, on: true });

    await host.waitFor(() => host.variables.get(fps) === 'stale', `${fps} stale`, STALE_WITHIN_MS);
    await host.waitFor(() => host.feedback(stale) === true, 'stale feedback on');
    expect(host.variables.get(`machine_${variableIdOf(quiet.name)}_fps_alert`)).toBe('stale');
    expect(host.variables.get('link')).toBe('ok');
    expect(host.status?.status).toBe('ok');
    expect(typeof host.variables.get(otherFps)).toBe('number');
    expect(host.feedback(otherStale)).toBe(false);

    await control(sim, { action: 'silentLive', pattern: `${quiet.hostname}:`, on: false });

    await host.waitFor(() => typeof host.variables.get(fps) === 'number', `${fps} live again`, STALE_WITHIN_MS);
    await host.waitFor(() => host.feedback(stale) === false, 'stale feedback off');
  });

  withReadyModule('warns that large answers stall (MTU) while small reads answer, shows the transports stale, never no link', async ({ sim, host }) => {
    const link = host.placeFeedback('link');
    const stale = host.placeFeedback('stale', { subject: 'transport_main' });
    const director = host.variables.get('director');

    await control(sim, { action: 'stallBody', path: '/api/session/transport/transports', on: true });

    await host.waitFor(() => host.status?.status === 'unknown_warning', 'a warning status');
    expect(host.status?.message).toMatch(/^Reachable, but large answers do not arrive \(MTU or jumbo frames\?\)/);
    await host.waitFor(() => host.variables.get('link') === 'mtu', 'link variable mtu');
    // What only the list carries is stale; the play state comes from the live stream, which still flows.
    await host.waitFor(() => host.variables.get('transport_main_section') === 'stale', 'section stale');
    expect(['play', 'stop', 'loop section', 'play to end of section']).toContain(host.variables.get('transport_main_playmode'));
    await host.waitFor(() => host.feedback(stale) === true, 'stale feedback on');
    expect(host.feedback(link)).toBe(false);
    expect(host.statuses.some(({ status }) => status === 'connection_failure' || status === 'disconnected')).toBe(false);
    // The session read is small: it still answers.
    expect(host.variables.get('director')).toBe(director);
    expect(host.variables.get('health')).not.toBe('stale');

    await control(sim, { action: 'stallBody', path: '/api/session/transport/transports', on: false });

    await host.waitFor(() => host.status?.status === 'ok', 'status ok again', 15_000);
    await host.waitFor(() => host.variables.get('link') === 'ok', 'link variable ok');
    await host.waitFor(() => typeof host.variables.get('transport_main_playing') === 'boolean', 'transports live again');
  });
});
