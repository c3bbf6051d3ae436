/**
 * The hardware actions against the simulator's management controller (both dialects: in r34 each machine's SMC
 * on its own address with an account; in the documents' dialect the API address after a login): an OLED message,
 * power (on at once; off and cycle on the second press only) and the LED strip (r34: the documents have none).
 * Also `applydefaultrouting`, which core does not mark as needing a confirmation: one press sends it.
 */
import { DIALECT_ENV, type LogEntry, type Simulator } from '@stagelink/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CompanionHost } from '../harness/testing.js';
import { control, startModule, startSim, untilReady } from './session.js';

describe('hardware and routing actions', () => {
  let sim: Simulator;
  let host: CompanionHost;
  const requests: string[] = [];

  /** How many requests reached this path, from the simulator's request log. */
  const sent = (method: string, path: string): number => requests.filter((line) => line === `${method} ${path}`).length;

  beforeEach(async () => {
    requests.splice(0);
    const log = (entry: LogEntry) => {
      if (entry.event === 'request') requests.push(`${String(entry['method'])} ${String(entry['path'])}`);
    };
    sim = await startSim(0, { log });
    const smc = sim.smc;
    if (smc) {
      host = await startModule(sim, { smcHost: smc.url, smcUser: smc.username }, { smcPassword: smc.password });
    } else {
      await control(sim, { action: 'login', loggedIn: true });
      host = await startModule(sim);
    }
    await untilReady(host);
  });

  afterEach(async () => {
    await host.destroy();
    await sim.close();
  });

  it('shows a message on the OLED screen', async () => {
    await host.runAction('oled_message', { title: 'Stage', message: 'Places, please', priority: 1 });

    expect(sim.state.hardware.oled.onScreen()).toMatchObject({ title: 'Stage', message: 'Places, please', priority: 1 });
  });

  it('powers on at one press', async () => {
    await host.runAction('smc_power', { power: 'on' });

    expect(sent('POST', '/api/chassis/power/on')).toBe(1);
  });

  for (const operation of ['off', 'cycle'] as const) {
    it(`powers ${operation} on the second press only, once, showing it armed between`, async () => {
      const armed = host.placeFeedback('armed', { action: 'smc_power', target: operation });

      await host.runAction('smc_power', { power: operation });

      await host.waitFor(() => host.feedback(armed) === true, 'armed');
      expect(sent('POST', `/api/chassis/power/${operation}`)).toBe(0);
      expect(sim.state.hardware.chassis.power).toBe('on');

      await host.runAction('smc_power', { power: operation });

      expect(sent('POST', `/api/chassis/power/${operation}`)).toBe(1);
      expect(sim.state.hardware.chassis.power).toBe(operation === 'off' ? 'off' : 'on');
      await host.waitFor(() => host.feedback(armed) === false, 'disarmed');
    });
  }

  it('never powers off on one press: the arming runs out', async () => {
    const armed = host.placeFeedback('armed', { action: 'smc_power', target: 'off' });

    await host.runAction('smc_power', { power: 'off' });
    await host.waitFor(() => host.feedback(armed) === true, 'armed');
    await host.waitFor(() => host.feedback(armed) === false, 'arming ran out', 8000);

    expect(sent('POST', '/api/chassis/power/off')).toBe(0);
    expect(sim.state.hardware.chassis.power).toBe('on');
  });

  it('sets the LED strip where the machine has one, and says so where it has none', async () => {
    const setting = host.runAction('smc_ledstrip', { ledMode: 'static', colour: '#ff8000' });
    if (sim.smc) {
      await setting;
      expect(sim.state.hardware.ledStrip).toEqual({ ledMode: 'static', ledR: 255, ledG: 128, ledB: 0 });
    } else {
      await expect(setting).rejects.toThrow(/ledstrip/i);
      expect(host.logs.some(({ level, message }) => level === 'warn' && /LED strip failed/.test(message))).toBe(true);
    }
  });

  // The documents' dialect has no account: the API address takes a login instead.
  it.runIf(process.env[DIALECT_ENV] === 'r34')('says the account is refused when the SMC password is wrong, and never shows the password', async () => {
    const smc = sim.smc;
    if (!smc) throw new Error('an r34 simulator has a management controller');
    const wrong = await startModule(sim, { smcHost: smc.url, smcUser: smc.username }, { smcPassword: 'not-the-password' });
    try {
      await expect(wrong.runAction('oled_message', { message: 'Places, please' })).rejects.toThrow(/login required/i);
      expect(sim.state.hardware.oled.onScreen()).toBeUndefined();
      const shown = [...wrong.logs.map(({ message }) => message), ...wrong.statuses.map(({ message }) => message ?? '')];
      expect(shown.some((line) => /login required/i.test(line))).toBe(true);
      expect(shown.some((line) => line.includes('not-the-password'))).toBe(false);
    } finally {
      await wrong.destroy();
    }
  });

  it('applies the default routing at one press: core does not ask to confirm it', async () => {
    const actor = sim.state.machines.sessionInfo().actors[0]?.name ?? '';
    await host.runAction('failovermachine', { machine: actor });
    await host.runAction('failovermachine', { machine: actor });
    expect(sim.state.failover.settings().currentPreset).not.toBe('Default routing');

    await host.runAction('applydefaultrouting');

    expect(sent('POST', '/api/session/failover/applydefaultrouting')).toBe(1);
    expect(sim.state.failover.settings().currentPreset).toBe('Default routing');
  });
});
