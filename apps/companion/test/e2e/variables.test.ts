/** Variables and feedbacks follow the live values and the session, against the simulator (both dialects). */
import { DIALECT_ENV } from '@stagelink/simulator';
import { describe, expect } from 'vitest';
import { control, withReadyModule } from './session.js';

describe('variables and feedbacks', () => {

  withReadyModule('names the director, the link and the health of the session', async ({ sim, host }) => {
    const director = sim.state.machines.sessionInfo().director?.hostname;
    await host.waitFor(() => host.variables.get('director') === director, `director ${director}`);
    await host.waitFor(() => host.variables.get('link') === 'ok', 'link ok');
    expect(['ok', 'warning', 'error', 'busy', 'offline']).toContain(host.variables.get('health'));
  });

  withReadyModule('shows every machine of the session with live FPS, its average and alert, role and health', async ({ sim, host }) => {
    for (const machine of sim.state.machines.all()) {
      const id = machine.name.toLowerCase().replace(/[^a-z0-9]/g, '_');
      await host.waitFor(() => typeof host.variables.get(`machine_${id}_fps`) === 'number', `live FPS of ${machine.name}`);
      expect(typeof host.variables.get(`machine_${id}_fps_avg`)).toBe('number');
      expect(['ok', 'warning', 'error']).toContain(host.variables.get(`machine_${id}_fps_alert`));
      expect(['director', 'actor', 'understudy']).toContain(host.variables.get(`machine_${id}_role`));
      expect(typeof host.variables.get(`machine_${id}_health`)).toBe('string');
    }
    expect(host.undefinedVariables).toEqual([]);
  });

  withReadyModule('follows a transport: playmode and playing variables and the playing feedback flip with a cue', async ({ sim, host }) => {
    const name = sim.state.transports.list()[0]?.name ?? '';
    const id = name.toLowerCase().replace(/[^a-z0-9]/g, '_');
    const playing = host.placeFeedback('playing', { transport: name });
    await host.runAction('stop', { transport: name });
    await host.waitFor(() => host.variables.get(`transport_${id}_playing`) === false, 'stopped');
    await host.waitFor(() => host.feedback(playing) === false, 'playing feedback off');

    await host.runAction('play', { transport: name });

    await host.waitFor(() => host.variables.get(`transport_${id}_playing`) === true, 'playing');
    expect(host.variables.get(`transport_${id}_playmode`)).toBe('play');
    await host.waitFor(() => host.feedback(playing) === true, 'playing feedback on');
    await host.waitFor(() => typeof host.variables.get(`transport_${id}_volume`) === 'number', 'live volume');
  });

  withReadyModule("follows a cue's play state from the live stream while the transports list cannot be read", async ({ sim, host }) => {
    const name = sim.state.transports.list()[0]?.name ?? '';
    const id = name.toLowerCase().replace(/[^a-z0-9]/g, '_');
    const playing = host.placeFeedback('playing', { transport: name });
    await control(sim, { action: 'stallBody', path: '/api/session/transport/transports', on: true });
    await host.waitFor(() => host.variables.get(`transport_${id}_section`) === 'stale', 'the transports list stale');

    await host.runAction('stop', { transport: name });
    await host.waitFor(() => host.variables.get(`transport_${id}_playing`) === false, 'stopped, from the live stream');
    await host.waitFor(() => host.feedback(playing) === false, 'playing feedback off');
    await host.runAction('play', { transport: name });

    await host.waitFor(() => host.variables.get(`transport_${id}_playing`) === true, 'playing, from the live stream');
    // The play state and the playmode are two live values: each arrives in its own update.
    await host.waitFor(() => host.variables.get(`transport_${id}_playmode`) === 'play', 'the playmode, from the live stream');
    await host.waitFor(() => host.feedback(playing) === true, 'playing feedback on');
    expect(host.variables.get(`transport_${id}_section`)).toBe('stale');
  });

  withReadyModule('keeps every value going when a transport is renamed to a name the live stream cannot address', async ({ sim, host }) => {
    await control(sim, { action: 'renameTransport', transport: 'lobby', name: 'Stage (L)' });
    const renamed = (): string | undefined =>
      Object.entries(host.variableDefinitions).find(([id, { name }]) => id.endsWith('_volume') && name.startsWith('Stage (L): '))?.[0].replace(/_volume$/, '');
    await host.waitFor(() => renamed() !== undefined, 'the renamed transport among the variables');
    const id = renamed() as string;
    // Its play state comes from the transports list; its level cannot be watched, so it is never shown as live.
    await host.waitFor(() => host.variables.get(`${id}_playmode`) === 'stop', 'the renamed transport\'s playmode');
    await host.waitFor(() => host.variables.get(`${id}_volume`) === 'stale', 'its volume not live');
    // The other transports go on as before.
    await host.runAction('play', { transport: 'main' });
    await host.waitFor(() => host.variables.get('transport_main_playing') === true, 'main playing after the rename');
  });

  withReadyModule('steps a volume through the live stream, from the value the server sends', async ({ sim, host }) => {
    const name = sim.state.transports.list()[0]?.name ?? '';
    const id = name.toLowerCase().replace(/[^a-z0-9]/g, '_');
    await host.runAction('volume', { transport: name, volume: 0.5 });
    await host.waitFor(() => host.variables.get(`transport_${id}_volume`) === 0.5, 'volume 0.5');

    await host.runAction('volume_adjust', { transport: name, step: 0.1 });

    await host.waitFor(() => host.variables.get(`transport_${id}_volume`) === 0.6, 'volume 0.6');
    expect(sim.state.transports.list().find((transport) => transport.name === name)?.volume).toBeCloseTo(0.6, 5);
  });

  withReadyModule('offers presets per transport and per machine, failover pairs, and RenderStream layers where the director has them', async ({ host }) => {
    const sections = () => host.presets.structure.map(({ id }) => id);
    // Only r34 directors have RenderStream layers, read on their own watch.
    const withLayers = process.env[DIALECT_ENV] === 'r34';
    if (withLayers) await host.waitFor(() => sections().includes('renderstream'), 'the RenderStream presets');
    expect(sections()).toEqual(['session', 'active', 'transports', 'machines', 'failover', ...(withLayers ? ['renderstream'] : [])]);
    const ids = Object.keys(host.presets.presets);
    expect(ids.some((id) => id.endsWith('_play'))).toBe(true);
    expect(ids.some((id) => id.startsWith('failovermachine_'))).toBe(true);
  });
});
