/**
 * A button whose step has several transport actions, against a director answering 3.5 s late (both dialects):
 * Companion runs a step's actions at once, so each waits in the show's cue lane for the one before it. With a flat
 * 3 s wait the second action would be refused unsent; with core's burst budget each action of the burst may wait one
 * request timeout (4 s) longer than the one before it, and the whole button lands. A cue pressed on its own behind
 * them keeps the flat 3 s, and is refused unsent.
 */
import { MediaServer, variableIdOf } from '@stagelink/core';
import { describe, expect } from 'vitest';
import { control, withReadyModule } from './session.js';

const LATENCY_MS = 3500;

describe('a multi-step button on a slow director', () => {
  withReadyModule('lands engage, go to track and play, and refuses a lone stop that waited behind them', async ({ sim, host }) => {
    const client = new MediaServer({ host: sim.mediaServer.url });
    const tracks = await client.transport.tracks().finally(async () => client.close());
    const current = sim.state.transports.positionOf({ name: 'main' }).track.name;
    const target = tracks.find((track) => track.name !== current)?.name;
    if (target === undefined) throw new Error('The simulated show has two tracks');
    sim.state.transports.setEngaged([{ transport: { name: 'main' }, engaged: false }]);
    const result = `transport_${variableIdOf('main')}_last_result`;
    await control(sim, { action: 'latency', ms: LATENCY_MS });

    // One button, one step: Companion starts its actions together.
    const step = Promise.all([
      host.executeAction('engaged', { transport: 'main', engaged: 'true' }),
      host.executeAction('gototrack', { transport: 'main', track: target, playmode: 'Stop' }),
      host.executeAction('play', { transport: 'main' }),
    ]);
    // Well after the step (more than 0.5 s apart is another press), a stop on its own: it would wait for all three.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const lone = host.executeAction('stop', { transport: 'main' }, { controlId: 'bank:2' });

    expect(await step).toEqual([
      { success: true, errorMessage: undefined },
      { success: true, errorMessage: undefined },
      { success: true, errorMessage: undefined },
    ]);
    const refused = await lone;
    expect(refused.success).toBe(false);
    expect(refused.errorMessage).toMatch(/was not sent: it waited \d+ ms for the cues before it \(at most 3000 ms\)/);
    await control(sim, { action: 'latency', ms: 0 });
    expect(sim.state.transports.list().find((transport) => transport.name === 'main')?.engaged).toBe(true);
    expect(sim.state.transports.positionOf({ name: 'main' })).toMatchObject({ track: { name: target }, playmode: 'play' });
    await host.waitFor(() => host.variables.get(result) === 'failed', `${result} failed for the lone stop`);
  });
});
