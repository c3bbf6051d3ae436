/**
 * Where a transport action goes (both dialects): a multitransport (every member), the transport the director reports
 * active at the press, and the dial presets that step a level on each turn.
 */
import { variableIdOf } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { CompanionHost } from '../harness/testing.js';
import { control, packedModule, withReadyModule } from './session.js';

const ACTIVE = '(active transport)';
const playmodeOf = (sim: Simulator, name: string): string | undefined => sim.state.transports.list().find((transport) => transport.name === name)?.playmode.toLowerCase();

describe('transport targets', () => {
  withReadyModule('offers the multitransports in the transport pickers and sends a cue to every member of one', async ({ sim, host }) => {
    const [multi] = sim.state.transports.multitransportList();
    if (!multi) throw new Error('the session has a multitransport');
    const members = sim.state.transports.list().filter((transport) => multi.transports.includes(transport.uid)).map(({ name }) => name);
    await host.waitFor(() => {
      const picker = host.action('play').options.find((option) => option.id === 'transport') as { choices?: { id: string }[] } | undefined;
      return picker?.choices?.some(({ id }) => id === multi.name);
    }, `${multi.name} in the transport picker`);
    for (const member of members) await host.runAction('stop', { transport: member });

    await host.runAction('play', { transport: multi.name });

    expect(members.map((member) => playmodeOf(sim, member))).toEqual(members.map(() => 'play'));
    const playing = host.placeFeedback('playing', { transport: multi.name });
    await host.waitFor(() => host.feedback(playing) === true, `the playing feedback of ${multi.name}`);
  });

  withReadyModule('lights a multitransport playing while any member plays, not only its first', async ({ sim, host }) => {
    const [multi] = sim.state.transports.multitransportList();
    const [first, second] = sim.state.transports.list().filter((transport) => multi?.transports.includes(transport.uid));
    if (!multi || !first || !second) throw new Error('the session has a multitransport of two transports');
    const playing = host.placeFeedback('playing', { transport: multi.name });
    await host.runAction('stop', { transport: first.name });
    await host.runAction('play', { transport: second.name });

    await host.waitFor(() => host.feedback(playing) === true, `${multi.name} playing while ${second.name} plays`);

    await host.runAction('stop', { transport: second.name });
    await host.waitFor(() => host.feedback(playing) === false, `${multi.name} stopped once no member plays`);
  });

  withReadyModule('offers the stale feedback each transport by its variable id, and no multitransport (it has no values)', async ({ sim, host }) => {
    const [multi] = sim.state.transports.multitransportList();
    if (!multi) throw new Error('the session has a multitransport');
    // A name that is not its own variable id: the feedback must find the transport the picker offers.
    const spaced = sim.state.transports.list().find((transport) => transport.name !== variableIdOf(transport.name));
    if (!spaced) throw new Error('the session has a transport whose name is not its variable id');
    const subjects = () => {
      const definition = host.feedbacks['stale'];
      const picker = definition ? definition.options.find((option) => option.id === 'subject') : undefined;
      return (picker as { choices?: { id: string; label: string }[] } | undefined)?.choices ?? [];
    };
    await host.waitFor(() => subjects().some(({ label }) => label === spaced.name), `${spaced.name} in the stale picker`);

    expect(subjects().filter(({ label, id }) => label.startsWith(multi.name) || id === `transport_${multi.name}` || id === `transport_${variableIdOf(multi.name)}`)).toEqual([]);
    const offered = subjects().find(({ label }) => label === spaced.name)?.id;
    expect(offered).toBe(`transport_${variableIdOf(spaced.name)}`);
    const stale = host.placeFeedback('stale', { subject: offered });
    await host.waitFor(() => host.feedback(stale) === false, `${spaced.name} not stale while its values are live`);
  });

  withReadyModule('sends a cue for the active transport to the one the director reports active at the press', async ({ sim, host }) => {
    const [first, second] = sim.state.transports.list();
    if (!first || !second) throw new Error('the session has two transports');
    await host.runAction('play', { transport: first.name });
    await host.runAction('play', { transport: second.name });
    await control(sim, { action: 'selectTransport', transport: { name: second.name } });

    await host.runAction('stop', { transport: ACTIVE });

    expect(playmodeOf(sim, second.name)).toBe('stop');
    expect(playmodeOf(sim, first.name)).toBe('play');
    await host.waitFor(() => host.variables.get(`transport_${variableIdOf(second.name)}_last_result`) === 'ok', 'the cue recorded for the active transport');

    await control(sim, { action: 'selectTransport', transport: { name: first.name } });
    await host.runAction('stop', { transport: ACTIVE });
    expect(playmodeOf(sim, first.name)).toBe('stop');
  });

  withReadyModule('sends nothing for the active transport while the director lists several no multitransport joins', async ({ sim, host }) => {
    const [first, second, third] = sim.state.transports.list();
    if (!first || !second || !third) throw new Error('the session has three transports');
    for (const { name } of [first, second, third]) await host.runAction('play', { transport: name });
    // As some shipping projects list five of their six transports: which one the operator chose cannot be told.
    await control(sim, { action: 'listActiveTransports', transports: [{ name: first.name }, { name: third.name }] });

    await expect(host.runAction('stop', { transport: ACTIVE })).rejects.toThrow(/reports 2 transports active .* nothing was sent/);

    expect([first, second, third].map(({ name }) => playmodeOf(sim, name))).toEqual(['play', 'play', 'play']);
    const lastError = (): unknown => host.variables.get('last_error');
    await host.waitFor(() => typeof lastError() === 'string' && (lastError() as string).includes('cannot be told'), 'the refusal in last_error');
  });

  withReadyModule('steps the volume one step a detent of the dial preset, up and down, losing none on a quick turn', async ({ sim, host }) => {
    const name = sim.state.transports.list()[0]?.name ?? '';
    const id = variableIdOf(name);
    await host.runAction('volume', { transport: name, volume: 0.5 });
    await host.waitFor(() => host.variables.get(`transport_${id}_volume`) === 0.5, 'volume 0.5');

    await host.operatePreset(`transport_${id}_volume_dial`, 'rotate_right');
    await host.waitFor(() => host.variables.get(`transport_${id}_volume`) === 0.55, 'volume 0.55');
    // Two detents at once, as a quick turn gives them: each steps from the one before, none is lost.
    await host.operatePreset(`transport_${id}_volume_dial`, 'rotate_left');
    await host.operatePreset(`transport_${id}_volume_dial`, 'rotate_left');

    await host.waitFor(() => host.variables.get(`transport_${id}_volume`) === 0.45, 'volume 0.45');
    expect(sim.state.transports.list().find((transport) => transport.name === name)?.volume).toBeCloseTo(0.45, 5);
  });
});

describe('presets before the first connection', () => {
  let host: CompanionHost | undefined;

  afterEach(async () => {
    await host?.destroy();
  });

  it('offers the session, active-transport and hardware presets while no server has answered yet', async () => {
    // Nothing listens on port 1 of loopback: the module never connects during the test.
    host = new CompanionHost(await packedModule());
    await host.start({ config: { host: '127.0.0.1:1', followDirector: true, backupHosts: '', hosts: '', smcs: 'ACTOR01=127.0.0.1:1', smcUser: 'admin', frameRate: 60 } });

    const ids = Object.keys(host.presets.presets);
    expect(ids).toEqual(expect.arrayContaining(['session_link', 'session_health', 'session_last_cue', 'active_play', 'active_stop', 'active_volume_dial', 'smc_actor01_power', 'smc_actor01_power_off']));
    expect(host.presets.structure.map(({ id }) => id)).toEqual(['session', 'active', 'transports', 'machines', 'failover', 'hardware']);
    expect(host.droppedPresets).toEqual([]);
  });
});
