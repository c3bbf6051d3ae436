/**
 * RenderStream layers against the simulator. r34: each layer's variables and feedbacks show its workload, a crashed
 * workload shows `error` and the restart action brings it back to `running`, stop takes two presses, a layer that
 * stops being read shows `stale`, a typed layer the director lacks is refused naming the layers it has. The
 * documents' dialect has no RenderStream: no layer variables, no crash, and the actions say why they send nothing.
 */
import { variableIdOf } from '@stagelink/core';
import { DIALECT_ENV, type LogEntry, type Simulator } from '@stagelink/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CompanionHost } from '../harness/testing.js';
import { control, startModule, startSim, untilReady } from './session.js';

const dialect = process.env[DIALECT_ENV] === 'r34' ? 'r34' : 'spec';

const LAYERS = ['Unreal Stage', 'Notch FX', 'TouchDesigner Data'];
const UNREAL = 'Unreal Stage';
const unreal = `layer_${variableIdOf(UNREAL)}_`;

describe('RenderStream layers', () => {
  let sim: Simulator;
  let host: CompanionHost;
  /** The paths of the requests the simulator answered, in order. */
  let paths: string[];
  const layerVariables = () => Object.keys(host.variableDefinitions).filter((id) => id.startsWith('layer_'));
  /** The text a placed advanced feedback lays over its button (checks answer asynchronously, as in Companion). */
  const textOf = (id: string): string | undefined => (host.feedback(id) as { text?: string } | undefined)?.text;
  const sent = (operation: string) => paths.filter((path) => path.endsWith(`/renderstream/${operation}`)).length;

  beforeEach(async () => {
    paths = [];
    sim = await startSim(0, { log: (entry: LogEntry) => (entry.event === 'request' ? paths.push(String(entry['path'])) : undefined) });
    host = await startModule(sim);
    await untilReady(host);
  });

  afterEach(async () => {
    await host.destroy();
    await sim.close();
  });

  describe.runIf(dialect === 'r34')('on a director with RenderStream', () => {
    beforeEach(async () => {
      await host.waitFor(() => host.variables.get(`${unreal}state`) === 'running', 'the layers read');
    });

    it('shows each layer and its running workload in its variables and feedbacks', async () => {
      for (const name of LAYERS) {
        const id = variableIdOf(name);
        expect(host.variables.get(`layer_${id}_name`)).toBe(name);
        expect(host.variables.get(`layer_${id}_state`)).toBe('running');
        expect(host.variables.get(`layer_${id}_message`)).toBe('');
      }
      expect(layerVariables()).toHaveLength(LAYERS.length * 3);
      const tile = host.placeFeedback('layer_workload', { layer: UNREAL });
      await host.waitFor(() => textOf(tile) === `${UNREAL}\nRUNNING`, 'the tile showing RUNNING');
      expect(host.action('renderstream_restart').options[0]).toMatchObject({ choices: LAYERS.map((name) => ({ id: name, label: name })), allowCustom: true });
      expect(host.undefinedVariables).toEqual([]);
    });

    it('shows a crashed workload as error, and the restart action brings it back to running', async () => {
      const failed = host.placeFeedback('layer_state', { layer: UNREAL, state: 'error' });
      const tile = host.placeFeedback('layer_workload', { layer: UNREAL });
      await host.waitFor(() => host.feedback(failed) === false, 'the error feedback off');

      await control(sim, { action: 'crashWorkload', layer: { name: UNREAL } });

      await host.waitFor(() => host.variables.get(`${unreal}state`) === 'error', 'the workload in error');
      expect(host.variables.get(`${unreal}message`)).toBe('The workload exited unexpectedly');
      await host.waitFor(() => host.feedback(failed) === true, 'the error feedback on');
      await host.waitFor(() => textOf(tile) === `${UNREAL}\nERROR`, 'the tile showing ERROR');
      expect(host.variables.get(`layer_${variableIdOf('Notch FX')}_state`)).toBe('running');

      await host.runAction('renderstream_restart', { layer: UNREAL });

      expect(sent('restartlayers')).toBe(1);
      await host.waitFor(() => host.variables.get(`${unreal}state`) === 'running', 'running again');
      expect(host.variables.get(`${unreal}message`)).toBe('');
      await host.waitFor(() => host.feedback(failed) === false, 'the error feedback off');
    });

    it('stops a layer on the second press of the same button only, showing it armed between', async () => {
      const armed = host.placeFeedback('armed', { action: 'renderstream_stop', target: UNREAL });

      await host.runAction('renderstream_stop', { layer: UNREAL }, { controlId: 'bank:1' });
      await host.waitFor(() => host.feedback(armed) === true, 'stop armed');
      // The same operation on another button arms that button and fires nothing.
      await host.runAction('renderstream_stop', { layer: UNREAL }, { controlId: 'bank:2' });
      expect(sent('stoplayers')).toBe(0);
      expect(sim.state.renderStream.layers().find(({ name }) => name === UNREAL)?.workload.state).toBe('running');

      await host.runAction('renderstream_stop', { layer: UNREAL }, { controlId: 'bank:1' });

      expect(sent('stoplayers')).toBe(1);
      await host.waitFor(() => host.variables.get(`${unreal}state`) === 'stopped', 'the workload stopped');

      await host.runAction('renderstream_start', { layer: UNREAL });
      await host.waitFor(() => host.variables.get(`${unreal}state`) === 'running', 'started again');
      await host.runAction('renderstream_sync', { layer: UNREAL });
      expect(sent('synclayers')).toBe(1);
    });

    it('reaches a layer typed in another case, and refuses one the director lacks, naming its layers, with nothing sent', async () => {
      await host.runAction('renderstream_restart', { layer: 'unreal stage' });
      expect(sent('restartlayers')).toBe(1);

      const result = await host.executeAction('renderstream_restart', { layer: 'Unreal Stag' });

      expect(result.success).toBe(false);
      expect(result.errorMessage).toBe(
        'RenderStream restart: the director has no RenderStream layer "Unreal Stag" (its layers: "Unreal Stage", "Notch FX", "TouchDesigner Data"), so nothing was sent. Check the layer\'s name on the button.',
      );
      expect(host.logs.some(({ level, message }) => level === 'warn' && message.includes('"Unreal Stag"'))).toBe(true);
      expect(sent('restartlayers')).toBe(1);
      // Nor is a stop armed for it: a press that can never fire must not show as armed.
      const armed = host.placeFeedback('armed', { action: 'renderstream_stop', target: 'Unreal Stag' });
      expect((await host.executeAction('renderstream_stop', { layer: 'Unreal Stag' })).success).toBe(false);
      // Arming a real layer checks every armed feedback again: by then one armed for the typo would show.
      const armedReal = host.placeFeedback('armed', { action: 'renderstream_stop', target: UNREAL });
      await host.runAction('renderstream_stop', { layer: UNREAL }, { controlId: 'bank:9' });
      await host.waitFor(() => host.feedback(armedReal) === true, 'a real layer armed');
      expect(host.feedback(armed)).toBe(false);
      expect(sent('stoplayers')).toBe(0);
      const tile = host.placeFeedback('layer_workload', { layer: 'Unreal Stag' });
      await host.waitFor(() => textOf(tile) === 'Unreal Stag\nUNKNOWN', 'the tile of a layer the director lacks');
    });

    it('offers presets per layer that Companion keeps: the workload tile lights in the error colour, and its press restarts it', async () => {
      const id = variableIdOf(UNREAL);
      await host.waitFor(() => host.presets.presets[`layer_${id}_workload`], 'the layer presets');
      expect(host.droppedPresets).toEqual([]);
      const [tile] = host.placePreset(`layer_${id}_workload`);
      const [armed] = host.placePreset(`layer_${id}_stop`);
      await control(sim, { action: 'crashWorkload', layer: { name: UNREAL } });
      await host.waitFor(() => textOf(tile?.id ?? '') === `${UNREAL}\nERROR`, 'the tile showing ERROR');

      await host.operatePreset(`layer_${id}_workload`, 'down');

      expect(sent('restartlayers')).toBe(1);
      await host.waitFor(() => textOf(tile?.id ?? '') === `${UNREAL}\nRUNNING`, 'the tile showing RUNNING again');
      await host.operatePreset(`layer_${id}_stop`, 'down');
      await host.waitFor(() => host.feedback(armed?.id ?? '') === true, 'the stop preset armed');
      expect(sent('stoplayers')).toBe(0);
    });

    it('shows stale, never the last state, while the layers stop being read, and live again after', async () => {
      const stale = host.placeFeedback('stale', { subject: `layer_${variableIdOf(UNREAL)}` });
      const running = host.placeFeedback('layer_state', { layer: UNREAL, state: 'running' });
      await host.waitFor(() => host.feedback(running) === true, 'running feedback on');
      await host.waitFor(() => host.feedback(stale) === false, 'stale feedback off');

      await control(sim, { action: 'stallBody', path: '/api/session/renderstream/layers', on: true });

      await host.waitFor(() => host.variables.get(`${unreal}state`) === 'stale', 'the state shown stale');
      expect(host.variables.get(`${unreal}name`)).toBe(UNREAL);
      await host.waitFor(() => host.feedback(stale) === true, 'stale feedback on');
      await host.waitFor(() => host.feedback(running) === false, 'running feedback off');
      expect(host.status?.status).toBe('ok');

      await control(sim, { action: 'stallBody', path: '/api/session/renderstream/layers', on: false });

      await host.waitFor(() => host.variables.get(`${unreal}state`) === 'running', 'live again');
      await host.waitFor(() => host.feedback(stale) === false, 'stale feedback off');
    });
    it('keeps the layers while the director is gone, showing no link, never their last state', async () => {
      const tile = host.placeFeedback('layer_workload', { layer: UNREAL });
      await host.waitFor(() => textOf(tile) === `${UNREAL}\nRUNNING`, 'the tile showing RUNNING');

      await sim.close();

      await host.waitFor(() => host.variables.get(`${unreal}state`) === 'no link', 'the state shown as no link');
      expect(host.variables.get(`${unreal}message`)).toBe('no link');
      expect(host.variables.get(`${unreal}name`)).toBe(UNREAL);
      expect(layerVariables()).toHaveLength(LAYERS.length * 3);
      await host.waitFor(() => textOf(tile) === `${UNREAL}\nNO LINK`, 'the tile showing NO LINK');
    });
  });

  describe.runIf(dialect === 'spec')('on a director without RenderStream', () => {
    it('defines no layer variables, stays ok, and says why a layer action sends nothing', async () => {
      const tile = host.placeFeedback('layer_workload', { layer: UNREAL });
      await host.waitFor(() => textOf(tile) === `${UNREAL}\nNO RENDERSTREAM`, 'the tile saying there is no RenderStream');

      const result = await host.executeAction('renderstream_restart', { layer: UNREAL });

      expect(result).toEqual({ success: false, errorMessage: 'RenderStream restart: the director offers no RenderStream (its build has no RenderStream layers), so nothing was sent.' });
      expect(sent('restartlayers')).toBe(0);
      expect(layerVariables()).toEqual([]);
      expect(host.status?.status).toBe('ok');
      expect(host.undefinedVariables).toEqual([]);
    });
  });
});
