/**
 * The presets as a desk uses them, dragged onto buttons in the stand-in for Companion (both dialects): what each
 * shows while the show runs.
 */
import { variableIdOf } from '@stagelink/core';
import { describe, expect } from 'vitest';
import { withReadyModule } from './session.js';

describe('presets on the desk', () => {
  withReadyModule("keeps each machine's name on its health tile, above the severity word", async ({ sim, host }) => {
    for (const machine of sim.state.machines.all()) {
      const [health] = host.placePreset(`machine_${variableIdOf(machine.name)}_health`);
      if (!health) throw new Error(`the health preset of ${machine.name} has a feedback`);
      const shown = await host.waitFor(() => {
        const result = host.feedback(health.id) as { text?: string } | undefined;
        return result?.text !== undefined && /\n(OK|READY|BUSY|WARNING|ERROR|OFFLINE)$/.test(result.text) ? result.text : undefined;
      }, `the health tile of ${machine.name}`);
      expect(shown.split('\n')[0]).toBe(machine.name);
    }
  });

  withReadyModule('lights only PLAY while the transport plays, and only STOP once it stopped; NEXT and PREV never', async ({ sim, host }) => {
    const name = sim.state.transports.list()[0]?.name ?? '';
    const id = variableIdOf(name);
    const buttons = Object.fromEntries(['play', 'stop', 'loop', 'next', 'prev'].map((key) => [key, host.placePreset(`transport_${id}_${key}`).filter(({ feedbackId }) => feedbackId !== 'stale')]));
    /** The buttons lit now: a state feedback of theirs is true. */
    const lit = (): string[] => Object.entries(buttons).filter(([, placed]) => placed.some(({ id: placedId }) => host.feedback(placedId) === true)).map(([key]) => key).sort();

    await host.runAction('play', { transport: name });
    await host.waitFor(() => host.variables.get(`transport_${id}_playing`) === true, 'playing');
    await host.waitFor(() => lit().join() === 'play', 'only PLAY lit while playing', 10_000).catch(() => undefined);
    expect(lit()).toEqual(['play']);

    await host.runAction('stop', { transport: name });
    await host.waitFor(() => host.variables.get(`transport_${id}_playing`) === false, 'stopped');
    await host.waitFor(() => lit().join() === 'stop', 'only STOP lit once stopped', 10_000).catch(() => undefined);
    expect(lit()).toEqual(['stop']);
    expect(buttons['next']).toEqual([]);
    expect(buttons['prev']).toEqual([]);
  });

  withReadyModule('offers presets Companion keeps: none names an action or feedback the module lacks', ({ host }) => {
    expect(Object.keys(host.presets.presets).length).toBeGreaterThan(0);
    expect(host.droppedPresets).toEqual([]);
  });
});
