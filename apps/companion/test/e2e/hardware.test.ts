/**
 * The hardware actions against the simulator's management controllers (both dialects: in r34 each machine's SMC
 * on its own address with an account; in the documents' dialect the machine's API address after a login): each
 * names its machine and goes only to that machine's line in the settings. An OLED message, power (on at once; off
 * and cycle on the second press on the same machine only) and the LED strip (r34: the documents have none); no
 * machine, or one without a line, sends nothing; after the director role moves, a machine's power and OLED still
 * land on it. Also `applydefaultrouting`, which core does not mark as needing a confirmation: one press sends it.
 */
import { variableIdOf } from '@stagelink/core';
import { DIALECT_ENV, type LogEntry, type Simulator } from '@stagelink/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CompanionHost } from '../harness/testing.js';
import { configFor, control, startModule, startSim, untilReady } from './session.js';

const dialect = process.env[DIALECT_ENV] === 'r34' ? 'r34' : 'spec';

interface Landed {
  method: string;
  path: string;
  status: number;
  server: string;
}

/** A request log that says which listener (which machine, or which machine's SMC) answered each request. */
function requestLog(): { landed: Landed[]; log: (entry: LogEntry) => void } {
  const landed: Landed[] = [];
  const log = (entry: LogEntry) => {
    if (entry.event === 'request') landed.push({ method: String(entry['method']), path: String(entry['path']), status: Number(entry['status']), server: String(entry['server']) });
  };
  return { landed, log };
}

/** The settings of each machine's SMC with the account: user in the config, password in the secrets. */
function smcSettings(sim: Simulator, lines: string): { config: Record<string, string>; secrets: Record<string, string> } {
  const smc = sim.smc;
  return { config: { smcs: lines, smcUser: smc?.username ?? '' }, secrets: smc ? { smcPassword: smc.password } : {} };
}

describe('hardware and routing actions', () => {
  let sim: Simulator;
  let host: CompanionHost;
  let landed: Landed[];
  let director: string;

  /** How many requests reached this path. */
  const sent = (method: string, path: string): number => landed.filter((request) => request.method === method && request.path === path).length;

  beforeEach(async () => {
    const requests = requestLog();
    landed = requests.landed;
    sim = await startSim(0, { log: requests.log });
    director = sim.state.machines.sessionInfo().director?.hostname ?? '';
    // Where the director's hardware answers: its own SMC on r34, its API address in the documents (after a login).
    const { config, secrets } = smcSettings(sim, `${director}=${sim.smc?.url ?? sim.mediaServer.url}`);
    if (!sim.smc) await control(sim, { action: 'login', loggedIn: true });
    host = await startModule(sim, config, secrets);
    await untilReady(host);
  });

  afterEach(async () => {
    await host.destroy();
    await sim.close();
  });

  it('shows a message on the OLED screen of the machine named', async () => {
    await host.runAction('oled_message', { machine: director, title: 'Stage', message: 'Places, please', priority: 1 });

    expect(sim.state.hardware.oled.onScreen()).toMatchObject({ title: 'Stage', message: 'Places, please', priority: 1 });
  });

  it('powers on at one press', async () => {
    await host.runAction('smc_power', { machine: director, power: 'on' });

    expect(sent('POST', '/api/chassis/power/on')).toBe(1);
  });

  for (const operation of ['off', 'cycle'] as const) {
    it(`powers ${operation} on the second press only, once, showing it armed between`, async () => {
      const armed = host.placeFeedback('armed', { action: 'smc_power', target: operation });
      const armedHere = host.placeFeedback('armed', { action: 'smc_power', target: `${operation} ${director}` });

      await host.runAction('smc_power', { machine: director, power: operation });

      await host.waitFor(() => host.feedback(armed) === true && host.feedback(armedHere) === true, 'armed');
      expect(sent('POST', `/api/chassis/power/${operation}`)).toBe(0);
      expect(sim.state.hardware.chassis.power).toBe('on');

      await host.runAction('smc_power', { machine: director, power: operation });

      expect(sent('POST', `/api/chassis/power/${operation}`)).toBe(1);
      expect(sim.state.hardware.chassis.power).toBe(operation === 'off' ? 'off' : 'on');
      await host.waitFor(() => host.feedback(armed) === false, 'disarmed');
    });
  }

  it('never powers off on one press: the arming runs out', async () => {
    const armed = host.placeFeedback('armed', { action: 'smc_power', target: 'off' });

    await host.runAction('smc_power', { machine: director, power: 'off' });
    await host.waitFor(() => host.feedback(armed) === true, 'armed');
    await host.waitFor(() => host.feedback(armed) === false, 'arming ran out', 8000);

    expect(sent('POST', '/api/chassis/power/off')).toBe(0);
    expect(sim.state.hardware.chassis.power).toBe('on');
  });

  it('arms power off per machine: a press for another machine arms that one, and fires nothing', async () => {
    const other = 'SPARE01';
    const address = sim.smc?.url ?? sim.mediaServer.url;
    const { config, secrets } = smcSettings(sim, `${director}=${address}\n${other}=${address}`);
    await host.configUpdated(configFor(sim, config), secrets);
    await untilReady(host);
    const armedOther = host.placeFeedback('armed', { action: 'smc_power', target: `off ${other}` });

    await host.runAction('smc_power', { machine: director, power: 'off' });
    await host.runAction('smc_power', { machine: other, power: 'off' });

    await host.waitFor(() => host.feedback(armedOther) === true, `off armed for ${other}`);
    expect(sent('POST', '/api/chassis/power/off')).toBe(0);
    expect(sim.state.hardware.chassis.power).toBe('on');
  });

  it('clears an arm when the settings change: the next press arms again and fires nothing', async () => {
    const armed = host.placeFeedback('armed', { action: 'smc_power', target: `off ${director}` });
    await host.runAction('smc_power', { machine: director, power: 'off' });
    await host.waitFor(() => host.feedback(armed) === true, 'armed');

    const { config, secrets } = smcSettings(sim, `${director}=${sim.smc?.url ?? sim.mediaServer.url}`);
    await host.configUpdated(configFor(sim, config), secrets);
    // At once, well inside the arm's 5 s: an arm that survived the settings would fire here.
    await host.runAction('smc_power', { machine: director, power: 'off' });

    expect(sent('POST', '/api/chassis/power/off')).toBe(0);
    expect(sim.state.hardware.chassis.power).toBe('on');
    await host.waitFor(() => host.feedback(armed) === true, 'armed again by the press after');
  });

  it('keeps an arm on the button that armed it: the same power off on another button arms that one and fires nothing', async () => {
    await host.runAction('smc_power', { machine: director, power: 'off' }, { controlId: 'bank:1' });
    await host.runAction('smc_power', { machine: director, power: 'off' }, { controlId: 'bank:2' });

    expect(sent('POST', '/api/chassis/power/off')).toBe(0);
    expect(sim.state.hardware.chassis.power).toBe('on');

    await host.runAction('smc_power', { machine: director, power: 'off' }, { controlId: 'bank:2' });
    expect(sent('POST', '/api/chassis/power/off')).toBe(1);
  });

  it('identifies the machine named: its OLED screen and rear LED strip blink', async () => {
    const before = sim.state.hardware.chassis.identifications;

    await host.runAction('smc_whoami', { machine: director });

    expect(sim.state.hardware.chassis.identifications).toBe(before + 1);
  });

  it('shows an OLED message for the display time given, and leaves the screen\'s own time when none is', async () => {
    await host.runAction('oled_message', { machine: director, message: 'Doors in five', displayTime: 30 });

    expect(sim.state.hardware.oled.displaySeconds).toBe(30);
    expect(sim.state.hardware.oled.onScreen()).toMatchObject({ message: 'Doors in five' });

    await host.runAction('oled_message', { machine: director, message: 'Beginners, please', displayTime: 0 });
    expect(sim.state.hardware.oled.displaySeconds).toBe(30);
    expect(sim.state.hardware.oled.onScreen()).toMatchObject({ message: 'Beginners, please' });
  });

  it('shows the power its SMC reports in a variable and the power feedback, and follows a power off', async () => {
    const id = variableIdOf(director);
    const on = host.placeFeedback('power', { machine: director, state: 'on' });
    const off = host.placeFeedback('power', { machine: director, state: 'off' });
    await host.waitFor(() => host.variables.get(`smc_${id}_power`) === 'on', 'power on');
    await host.waitFor(() => host.feedback(on) === true && host.feedback(off) === false, 'power feedback on');

    await host.runAction('smc_power', { machine: director, power: 'off' });
    await host.runAction('smc_power', { machine: director, power: 'off' });

    await host.waitFor(() => host.variables.get(`smc_${id}_power`) === 'off', 'power off', 20_000);
    await host.waitFor(() => host.feedback(on) === false && host.feedback(off) === true, 'power feedback off');
  });

  // The documents' answer says only on or off; shipping SMCs report the faults too.
  it.runIf(dialect === 'r34')('lights the power fault feedback while the SMC reports a fault', async () => {
    const id = variableIdOf(director);
    const fault = host.placeFeedback('power_fault', { machine: director });
    await host.waitFor(() => host.variables.get(`smc_${id}_power_fault`) === false, 'no fault');
    await host.waitFor(() => host.feedback(fault) === false, 'power fault feedback off');
    await control(sim, { action: 'hardwareFault', hostname: director, fault: 'power', on: true });

    await host.waitFor(() => host.variables.get(`smc_${id}_power_fault`) === true, 'a power fault', 20_000);
    await host.waitFor(() => host.feedback(fault) === true, 'power fault feedback on');
  });

  it.runIf(dialect === 'spec')('shows the power fault unknown, not clear, when the SMC reports no fault flags', async () => {
    const id = variableIdOf(director);
    const fault = host.placeFeedback('power_fault', { machine: director });
    await host.waitFor(() => host.variables.get(`smc_${id}_power`) === 'on', 'power on');

    expect(host.variables.get(`smc_${id}_power_fault`)).toBe('');
    await host.waitFor(() => host.feedback(fault) === false, 'power fault feedback off');
  });

  it('offers hardware presets for each machine with an SMC in the settings, each kept by Companion', () => {
    const id = variableIdOf(director);
    expect(host.presets.structure.map(({ id: section }) => section)).toContain('hardware');
    for (const key of ['power', 'whoami', 'power_on', 'power_off', 'oled']) expect(Object.keys(host.presets.presets)).toContain(`smc_${id}_${key}`);
    expect(host.droppedPresets).toEqual([]);
  });

  it('refuses a hardware action that names no machine, or one with no SMC in the settings, sending nothing and saying why', async () => {
    await expect(host.runAction('smc_power', { machine: '', power: 'on' })).rejects.toThrow(/choose the machine/);
    await expect(host.runAction('oled_message', { machine: 'ACTOR99', message: 'Doors' })).rejects.toThrow(/no management controller for ACTOR99/);
    await expect(host.runAction('smc_ledstrip', { machine: 'ACTOR99', ledMode: 'static', colour: '#ff0000' })).rejects.toThrow(/ACTOR99=<its SMC address>/);

    // The hardware family is every /api/ path outside the session and service families.
    expect(landed.filter(({ method, path }) => method === 'POST' && path.startsWith('/api/') && !/^\/api\/(session|service)\//.test(path))).toEqual([]);
    const warned = host.logs.filter(({ level }) => level === 'warn').map(({ message }) => message);
    expect(warned).toContainEqual(expect.stringMatching(/^Hardware: power on, off or cycle .* failed: .*choose the machine/));
    expect(warned).toContainEqual(expect.stringMatching(/^Hardware: show a message on the OLED screen failed: .*no management controller for ACTOR99/));
  });

  it('lists the session\'s machines for the hardware actions, saying which have no SMC in the settings', () => {
    const options = host.action('smc_power').options;
    const machine = options.find((option) => option.id === 'machine');
    const choices = (machine as { choices?: { id: string; label: string }[] } | undefined)?.choices ?? [];
    expect(choices).toContainEqual({ id: director, label: director });
    const actor = sim.state.machines.sessionInfo().actors[0]?.hostname ?? '';
    expect(choices).toContainEqual({ id: actor, label: `${actor} (no SMC in the settings)` });
  });

  it('sets the LED strip where the machine has one, and says so where it has none', async () => {
    const setting = host.runAction('smc_ledstrip', { machine: director, ledMode: 'static', colour: '#ff8000' });
    if (sim.smc) {
      await setting;
      expect(sim.state.hardware.ledStrip).toEqual({ ledMode: 'static', ledR: 255, ledG: 128, ledB: 0 });
    } else {
      await expect(setting).rejects.toThrow(/ledstrip/i);
      expect(host.logs.some(({ level, message }) => level === 'warn' && /LED strip failed/.test(message))).toBe(true);
    }
  });

  // The documents' dialect has no account: the API address takes a login instead.
  it.runIf(dialect === 'r34')('says the account is refused when the SMC password is wrong, and never shows the password', async () => {
    const smc = sim.smc;
    if (!smc) throw new Error('an r34 simulator has a management controller');
    const wrong = await startModule(sim, { smcs: `${director}=${smc.url}`, smcUser: smc.username }, { smcPassword: 'not-the-password' });
    try {
      await expect(wrong.runAction('oled_message', { machine: director, message: 'Places, please' })).rejects.toThrow(/login required/i);
      expect(sim.state.hardware.oled.onScreen()).toBeUndefined();
      const shown = [...wrong.logs.map(({ message }) => message), ...wrong.statuses.map(({ message }) => message ?? '')];
      expect(shown.some((line) => /login required/i.test(line))).toBe(true);
      expect(shown.some((line) => line.includes('not-the-password'))).toBe(false);
    } finally {
      await wrong.destroy();
    }
  });

  it.runIf(dialect === 'r34')("sends a machine's own password and user, given on its line and in the per-machine passwords", async () => {
    const smc = sim.smc;
    if (!smc) throw new Error('an r34 simulator has a management controller');
    const own = await startModule(sim, { smcs: `${director}=${smc.username}@${smc.url.replace('http://', '')}`, smcUser: 'someone-else' }, { smcPassword: 'not-the-password', smcPasswords: `${director}=${smc.password}` });
    try {
      await own.runAction('oled_message', { machine: director, message: 'Own account' });
      expect(sim.state.hardware.oled.onScreen()).toMatchObject({ message: 'Own account' });
    } finally {
      await own.destroy();
    }
  });

  it('says authentication_failure, naming the machine, while its SMC refuses the account, and ok once it accepts it', async () => {
    // r34: a wrong password for the machine's own SMC; the documents' dialect: the API address logged out.
    const smc = sim.smc;
    const refused = smc ? await startModule(sim, { smcs: `${director}=${smc.url}`, smcUser: smc.username }, { smcPassword: 'not-the-password' }) : host;
    if (!smc) await control(sim, { action: 'login', loggedIn: false });
    try {
      await untilReady(refused);
      const result = await refused.executeAction('oled_message', { machine: director, message: 'Places, please' });

      expect(result.success).toBe(false);
      await refused.waitFor(() => refused.status?.status === 'authentication_failure', 'authentication_failure');
      expect(refused.status?.message).toContain(director);
      expect(refused.status?.message).toMatch(/SMC user and password/);
      expect(refused.status?.message).not.toContain('not-the-password');

      if (smc) await refused.configUpdated(configFor(sim, { smcs: `${director}=${smc.url}`, smcUser: smc.username }), { smcPassword: smc.password });
      else await control(sim, { action: 'login', loggedIn: true });
      expect(await refused.executeAction('oled_message', { machine: director, message: 'Places, please' })).toEqual({ success: true, errorMessage: undefined });
      await refused.waitFor(() => refused.status?.status === 'ok', 'ok again');
    } finally {
      if (refused !== host) await refused.destroy();
    }
  });

  it('still says the live stream is down while an SMC refuses the account, in the status and the link variable', async () => {
    const smc = sim.smc;
    const refused = smc ? await startModule(sim, { smcs: `${director}=${smc.url}`, smcUser: smc.username }, { smcPassword: 'not-the-password' }) : host;
    if (!smc) await control(sim, { action: 'login', loggedIn: false });
    try {
      await untilReady(refused);
      expect((await refused.executeAction('oled_message', { machine: director, message: 'Places, please' })).success).toBe(false);
      await refused.waitFor(() => refused.status?.status === 'authentication_failure', 'authentication_failure');

      await control(sim, { action: 'refuseUpgrades', on: true });
      await control(sim, { action: 'dropSockets' });

      await refused.waitFor(() => refused.variables.get('link') === 'live down', 'link variable live down');
      expect(refused.status?.status).toBe('authentication_failure');
      expect(refused.status?.message).toContain(director);
      expect(refused.status?.message).toMatch(/live updates are down/);
    } finally {
      await control(sim, { action: 'refuseUpgrades', on: false });
      if (refused !== host) await refused.destroy();
    }
  });

  // Shipping SMCs answer power reads without the account; the documents put power status behind the login.
  it.runIf(dialect === 'spec')('says authentication_failure when a power read is refused, and reads no more until a press goes through', async () => {
    const refused = host;
    const reads = () => landed.filter(({ method, path }) => method === 'GET' && path === '/api/chassis/power/status');
    await control(sim, { action: 'login', loggedIn: false });
    const beforeRefusal = reads().length;
    await refused.waitFor(() => refused.status?.status === 'authentication_failure', 'authentication_failure from a power read', 20_000);
    expect(refused.status?.message).toContain(director);
    expect(refused.status?.message).toMatch(/SMC user and password/);
    const refusedReads = reads().slice(beforeRefusal);
    expect(refusedReads.map(({ status }) => status)).toContain(401);

    // Longer than the power read's 5 s interval: a poll that went on would have asked again.
    await new Promise((resolve) => setTimeout(resolve, 6000));
    expect(reads().length - beforeRefusal).toBeLessThanOrEqual(refusedReads.length);
    expect(reads().slice(beforeRefusal).filter(({ status }) => status === 401).length).toBeLessThanOrEqual(2);
    expect(refused.status?.status).toBe('authentication_failure');

    await control(sim, { action: 'login', loggedIn: true });
    await refused.runAction('smc_whoami', { machine: director });
    await refused.waitFor(() => refused.status?.status === 'ok', 'ok once a press went through');
    const afterPress = reads().length;
    await refused.waitFor(() => reads().length > afterPress, 'power read again after the press', 20_000);
  }, 60_000);

  it('gives SMC lines whose names differ only in punctuation variables of their own', async () => {
    const address = sim.smc?.url ?? sim.mediaServer.url;
    const { config, secrets } = smcSettings(sim, `ACTOR-01=${address}\nACTOR.01=${address}`);
    await host.configUpdated(configFor(sim, config), secrets);
    await untilReady(host);

    expect(host.variableDefinitions['smc_actor_01_power']?.name).toMatch(/^ACTOR-01:/);
    expect(host.variableDefinitions['smc_actor_01_2_power']?.name).toMatch(/^ACTOR\.01:/);
    await host.waitFor(() => host.variables.get('smc_actor_01_power') === 'on' && host.variables.get('smc_actor_01_2_power') === 'on', 'both machines\' power');
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

describe('hardware actions in a session whose director moves', () => {
  let sim: Simulator | undefined;
  let host: CompanionHost | undefined;

  afterEach(async () => {
    await host?.destroy();
    await sim?.close();
    sim = undefined;
    host = undefined;
  });

  it('lands power and OLED for a machine on that machine, after the director role moved to another', async () => {
    const requests = requestLog();
    const from = (sim = await startSim(0, { scenario: 'session', log: requests.log }));
    const [first, next] = [from.machines().find((each) => each.role === 'director'), from.machines().find((each) => each.role === 'actor')];
    if (!first || !next) throw new Error('the session has a director and an actor');
    // Each machine's SMC (r34) or own address (the documents), under the name the session gives it.
    const smcs = from.machines().map(({ hostname, url, smcUrl }) => `${hostname}=${smcUrl ?? url}`).join('\n');
    const hosts = from.machines().map(({ hostname, url }) => `${hostname}=${new URL(url).host}`).join('\n');
    const { config, secrets } = smcSettings(from, smcs);
    if (!from.smc) await control(from, { action: 'login', loggedIn: true });
    const module = (host = await startModule(from, { host: first.url, hosts, ...config }, secrets));
    await untilReady(module);

    await control(from, { action: 'moveDirector', to: next.hostname });
    await module.waitFor(() => module.variables.get('director') === next.hostname, `director ${next.hostname}`, 20_000);
    const moved = requests.landed.length;

    await module.runAction('oled_message', { machine: first.hostname, message: 'Powering down' });
    await module.runAction('smc_power', { machine: first.hostname, power: 'off' });
    await module.runAction('smc_power', { machine: first.hostname, power: 'off' });

    const writes = (path: string) => requests.landed.filter((request) => request.method === 'POST' && request.path === path).map(({ server, status }) => ({ server, status }));
    expect(writes('/api/oled/notification')).toEqual([{ server: first.smcUrl ?? first.url, status: 201 }]);
    expect(writes('/api/chassis/power/off')).toEqual([{ server: first.smcUrl ?? first.url, status: 200 }]);
    // The power of the old director is still read from its own SMC: a read that followed the director would not.
    const powerReads = () => requests.landed.slice(moved).filter(({ method, path }) => method === 'GET' && path === '/api/chassis/power/status');
    await module.waitFor(() => powerReads().some(({ server }) => server === (first.smcUrl ?? first.url)), `a power read on ${first.hostname}'s SMC`, 20_000);
  });
});
