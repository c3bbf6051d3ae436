/**
 * The module asks Companion to check only the feedback types whose inputs changed (both dialects): a desk of 200
 * buttons is not re-checked on each of the FPS values twenty machines send ten times a second.
 */
import { variableIdOf } from '@stagelink/core';
import { describe, expect } from 'vitest';
import { withReadyModule } from './session.js';

const FPS_UPDATES = 30;

describe('feedback checks', () => {
  withReadyModule('never checks the play-state, link, takeover or armed feedbacks again while only FPS values change', async ({ sim, host }) => {
    const transport = sim.state.transports.list()[0]?.name ?? '';
    const { understudies } = sim.state.machines.sessionInfo();
    const understudy = understudies[0];
    if (!understudy) throw new Error('the session has an understudy');
    const placed = {
      playing: host.placeFeedback('playing', { transport }),
      link: host.placeFeedback('link'),
      takeover: host.placeFeedback('takeover', { machine: variableIdOf(understudy.name) }),
      armed: host.placeFeedback('armed', { action: 'failovermachine', target: 'nobody' }),
    };
    await host.waitFor(() => Object.values(placed).every((id) => host.checksOf(id) > 0), 'each feedback checked once');
    await host.waitFor(() => host.variables.get(`transport_${variableIdOf(transport)}_playing`) !== '', 'the play state shown');
    const before = Object.fromEntries(Object.entries(placed).map(([name, id]) => [name, host.checksOf(id)]));
    const isFps = (id: string): boolean => /^machine_.+_fps$/.test(id);
    const fpsBefore = host.variableHistory.filter(({ id }) => isFps(id)).length;

    await host.waitFor(() => host.variableHistory.filter(({ id }) => isFps(id)).length >= fpsBefore + FPS_UPDATES, `${FPS_UPDATES} FPS updates`, 30_000);

    // Two checks each at most: a first answer of the tracks or a session change meanwhile redefines the actions and
    // feedbacks, which checks every type once. Checking every type on every change gave dozens here.
    for (const [name, id] of Object.entries(placed)) expect(host.checksOf(id) - (before[name] ?? 0), name).toBeLessThanOrEqual(2);
  });

  withReadyModule('checks a feedback type again when its input changes', async ({ sim, host }) => {
    const transport = sim.state.transports.list()[0]?.name ?? '';
    const playing = host.placeFeedback('playing', { transport });
    await host.runAction('play', { transport });
    await host.waitFor(() => host.feedback(playing) === true, 'playing feedback on');
    const armed = host.placeFeedback('armed', { action: 'failovermachine', target: sim.state.machines.sessionInfo().actors[0]?.name ?? '' });
    await host.waitFor(() => host.feedback(armed) === false, 'armed feedback off');

    await host.runAction('stop', { transport });
    await host.runAction('failovermachine', { machine: sim.state.machines.sessionInfo().actors[0]?.name ?? '' });

    await host.waitFor(() => host.feedback(playing) === false, 'playing feedback off');
    await host.waitFor(() => host.feedback(armed) === true, 'armed feedback on');
  });
});
