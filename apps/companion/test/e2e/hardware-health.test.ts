/**
 * Each machine with a management controller in the settings shows its hardware health: variables (severity, the
 * reasons, hottest temperature, slowest fan) and the hardware fault feedback, from core's poll of its SMC. Against
 * the simulator in both dialects (r34: the director's own SMC; the documents: its API address), read every second.
 */
import { variableIdOf } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CompanionHost } from '../harness/testing.js';
import { control, startModule, startSim, untilReady } from './session.js';

describe('hardware health', () => {
  let sim: Simulator;
  let host: CompanionHost;
  let director: string;
  let id: string;
  const value = (suffix: string) => host.variables.get(`smc_${id}_${suffix}`);

  beforeEach(async () => {
    sim = await startSim();
    director = sim.state.machines.sessionInfo().director?.hostname ?? '';
    id = variableIdOf(director);
    // The documents' power status needs a login, which the simulator takes through its control endpoint.
    if (!sim.smc) await control(sim, { action: 'login', loggedIn: true });
    host = await startModule(sim, { smcs: `${director}=${sim.smc?.url ?? sim.mediaServer.url}`, hardwareEvery: 1 });
    await untilReady(host);
    await host.waitFor(() => value('hardware') === 'ok', `${director}'s hardware read`);
  });

  afterEach(async () => {
    await host.destroy();
    await sim.close();
  });

  it('shows a stopped fan in the variables and the hardware fault feedback, and its end', async () => {
    expect(typeof value('hottest')).toBe('number');
    expect(value('hottest_sensor')).toBe('CPU Temp');
    expect(value('slowest_fan')).toBeGreaterThan(1000);
    expect(value('hardware_reasons')).toBe('');
    expect(value('hardware_fault')).toBe('OK');
    const fault = host.placeFeedback('hardware_fault', { machine: director, level: 'error' });
    await host.waitFor(() => host.feedback(fault) === false, 'hardware fault feedback off');

    await control(sim, { action: 'hardwareFault', hostname: director, fault: 'fan', on: true });

    await host.waitFor(() => value('hardware') === 'error', 'hardware error');
    expect(value('hardware_reasons')).toBe('Fan 2 has stopped (0 RPM)');
    expect(value('hardware_fault')).toBe('FAN');
    expect(value('slowest_fan')).toBe(0);
    expect(value('slowest_fan_sensor')).toBe('Fan 2');
    await host.waitFor(() => host.feedback(fault) === true, 'hardware fault feedback on');

    await control(sim, { action: 'hardwareFault', hostname: director, fault: 'fan', on: false });
    await host.waitFor(() => value('hardware') === 'ok', 'hardware ok again');
    await host.waitFor(() => host.feedback(fault) === false, 'hardware fault feedback off');
    expect(host.undefinedVariables).toEqual([]);
  });

  it('shows an output card without signal as a warning, lit only by a feedback set at warnings', async () => {
    const atError = host.placeFeedback('hardware_fault', { machine: director, level: 'error' });
    const atWarning = host.placeFeedback('hardware_fault', { machine: director, level: 'warning' });
    await control(sim, { action: 'hardwareFault', hostname: director, fault: 'output', on: true });

    await host.waitFor(() => value('hardware') === 'warning', 'hardware warning');
    expect(value('hardware_reasons')).toBe('the output card in slot 1 (DP-4) reports no signal');
    await host.waitFor(() => host.feedback(atWarning) === true, 'feedback at warnings on');
    expect(host.feedback(atError)).toBe(false);
  });

  it('shows an SMC that stops answering as offline, with no reading shown', async () => {
    const fault = host.placeFeedback('hardware_fault', { machine: director, level: 'error' });
    await control(sim, { action: 'smcSilent', hostname: director, on: true });

    await host.waitFor(() => value('hardware') === 'offline', 'hardware offline');
    expect(value('hottest')).toBe('offline');
    expect(value('slowest_fan')).toBe('offline');
    expect(value('hardware_fault')).toBe('OFFLINE');
    await host.waitFor(() => host.feedback(fault) === true, 'hardware fault feedback on');
    await control(sim, { action: 'smcSilent', hostname: director, on: false });
    await host.waitFor(() => value('hardware') === 'ok', 'answering again');
  });

  it('offers a hardware tile preset per SMC line, lit in the error colour by a fault', async () => {
    const placed = host.placePreset(`smc_${id}_hardware`);
    expect(placed.map(({ feedbackId }) => feedbackId)).toEqual(['hardware_fault', 'hardware_fault']);
    const atError = placed[1]?.id ?? '';
    await host.waitFor(() => host.feedback(atError) === false, 'the tile unlit');

    await control(sim, { action: 'hardwareFault', hostname: director, fault: 'overheat', on: true });

    await host.waitFor(() => host.feedback(atError) === true, 'the tile lit at an error');
    expect(value('hardware_fault')).toBe('HOT');
  });
});
