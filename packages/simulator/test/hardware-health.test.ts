/**
 * Each machine's management controller reports readings of its own that drift as real ones do, faults put on one
 * machine by `hardwareFault`, and silence (`smcSilent`): the `session` scenario in both dialects, where every
 * machine serves the hardware family (on its SMC in r34, on its own address in the documents).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../src/index.js';
import { MachineSensors } from '../src/state/hardware/machine-sensors.js';
import { ManualClock } from './support/demo-state.js';

describe('a machine\'s sensors', () => {
  it('drift around values of their own, the same for the same seed and time', () => {
    const clock = new ManualClock();
    const sensors = new MachineSensors(1, 'ACTOR01', clock);
    const again = new MachineSensors(1, 'actor01', clock);
    const other = new MachineSensors(1, 'ACTOR02', clock);
    const readings: Record<string, string>[] = [];
    for (let second = 0; second < 600; second += 5) {
      readings.push(sensors.readings());
      expect(again.readings()).toEqual(readings.at(-1));
      clock.advanceSeconds(5);
    }
    expect(other.readings()).not.toEqual(sensors.readings());
    const number = (text: string | undefined) => Number(/^(\d+)/.exec(text ?? '')?.[1]);
    const cpu = readings.map((each) => number(each['CPU Temp']));
    const fan = readings.map((each) => number(each['Fan 1']));
    expect(new Set(cpu).size).toBeGreaterThan(2);
    expect(new Set(fan).size).toBeGreaterThan(5);
    expect(Math.max(...cpu) - Math.min(...cpu)).toBeLessThan(15);
    expect(Math.min(...fan)).toBeGreaterThan(4000);
    expect(readings[0]?.['CPU Temp']).toMatch(/^\d+ degrees C$/);
    expect(readings[0]?.['Fan 2']).toMatch(/^\d+ RPM$/);
    expect(readings[0]?.['Main Power Fault']).toBe('false');
  });

  it('show each fault as an SMC reports it', () => {
    const sensors = new MachineSensors(1, 'ACTOR01', new ManualClock());
    sensors.faults.add('fan');
    sensors.faults.add('overheat');
    sensors.faults.add('power');
    sensors.faults.add('output');
    expect(sensors.readings()).toMatchObject({ 'Fan 2': '0 RPM', 'Main Power Fault': 'true', 'Power Overload': 'false' });
    expect(Number(/^(\d+)/.exec(sensors.readings()['CPU Temp'] ?? '')?.[1])).toBeGreaterThan(90);
    expect(sensors.cards([{ slot: 1, type: 'DP-4', status: 'ok' }, { slot: 2, type: 'HDMI-4', status: 'ok' }])).toEqual([
      { slot: 1, type: 'DP-4', status: 'no signal' },
      { slot: 2, type: 'HDMI-4', status: 'ok' },
    ]);
  });
});

for (const dialect of ['spec', 'r34'] as const) {
  describe(`hardware faults on one machine of the session (${dialect})`, () => {
    let sim: Simulator;
    const machine = (hostname: string) => {
      const found = sim.machines().find((each) => each.hostname.toLowerCase() === hostname.toLowerCase());
      if (!found) throw new Error(`the session has ${hostname}`);
      return found;
    };
    const [directorName, actorName, otherName] = dialect === 'r34' ? ['DIRECTOR01', 'ACTOR01', 'ACTOR02'] : ['127.0.0.2', '127.0.0.3', '127.0.0.4'];
    const smcOf = (hostname: string) => machine(hostname).smcUrl ?? machine(hostname).url;
    const control = async (body: Record<string, unknown>) => {
      const response = await fetch(`${machine(directorName).url}/__sim/control`, { method: 'POST', body: JSON.stringify(body) });
      return { status: response.status, json: (await response.json()) as Record<string, unknown> };
    };
    const get = async (hostname: string, path: string, signal?: AbortSignal) => (await fetch(`${smcOf(hostname)}${path}`, { signal })).json() as Promise<unknown>;

    beforeAll(async () => {
      sim = await startSimulator({ scenario: 'session', dialect, port: 0, drivePort: 0 });
    });
    afterAll(async () => {
      await sim.close();
    });
    beforeEach(async () => {
      await control({ action: 'reset' });
    });

    it('turns a fault on in one machine\'s stats, power status and cards, and off again', async () => {
      for (const fault of ['fan', 'overheat', 'power', 'output']) expect((await control({ action: 'hardwareFault', hostname: actorName.toLowerCase(), fault, on: true })).status).toBe(200);
      const stats = (await get(actorName, '/api/chassis/stats')) as Record<string, string>;
      expect(stats).toMatchObject({ 'Fan 2': '0 RPM', 'Main Power Fault': 'true', 'System Power': 'on' });
      expect(Number.parseInt(stats['CPU Temp'] ?? '', 10)).toBeGreaterThan(90);
      expect(((await get(actorName, '/api/vfcs')) as { status: string }[])[0]?.status).toBe('no signal');
      if (dialect === 'r34') expect(await get(actorName, '/api/chassis/power/status')).toMatchObject({ 'Main Power Fault': true });
      const untouched = (await get(otherName, '/api/chassis/stats')) as Record<string, string>;
      expect(untouched).toMatchObject({ 'Main Power Fault': 'false' });
      expect(untouched['Fan 2']).not.toBe('0 RPM');
      expect((await control({ action: 'status' })).json['hardwareFaults']).toEqual({ [actorName.toLowerCase()]: ['fan', 'overheat', 'power', 'output'] });

      await control({ action: 'hardwareFault', hostname: actorName, fault: 'fan', on: false });
      expect(((await get(actorName, '/api/chassis/stats')) as Record<string, string>)['Fan 2']).not.toBe('0 RPM');
    });

    it('refuses a fault it does not know, and a machine the session lacks, naming what it takes', async () => {
      const fault = await control({ action: 'hardwareFault', hostname: actorName, fault: 'fire', on: true });
      expect(fault.status).toBe(400);
      expect(fault.json['message']).toMatch(/fan, overheat, power, output/);
      const unknown = await control({ action: 'smcSilent', hostname: 'NOBODY', on: true });
      expect(unknown.status).toBe(400);
      expect(unknown.json['message']).toContain(actorName);
    });

    it('holds hardware requests to a silent SMC unanswered, counts them per machine, and answers again', async () => {
      expect((await control({ action: 'smcSilent', hostname: actorName, on: true })).json['silentSmcs']).toEqual([actorName.toLowerCase()]);
      await expect(get(actorName, '/api/chassis/stats', AbortSignal.timeout(300))).rejects.toThrow();
      expect(await get(otherName, '/api/chassis/stats')).toMatchObject({ 'System Power': 'on' });
      expect(sim.arrivals.count('GET', '/api/chassis/stats', actorName)).toBe(1);
      expect(sim.arrivals.count('GET', '/api/chassis/stats', otherName.toLowerCase())).toBe(1);
      expect(sim.arrivals.count('GET', '/api/chassis/stats')).toBe(2);
      await control({ action: 'smcSilent', hostname: actorName, on: false });
      expect(await get(actorName, '/api/chassis/stats')).toMatchObject({ 'System Power': 'on' });
      expect(sim.arrivals.count('GET', '/api/chassis/stats', directorName)).toBe(0);
    });
  });
}
