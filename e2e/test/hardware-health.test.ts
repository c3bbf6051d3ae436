/**
 * Hardware health watched through each machine's management controller: the simulator's `session` scenario over
 * real sockets, in the dialect of the run (STAGELINK_SIM_DIALECT): on r34 each machine's SMC on its own address, in
 * the documents the hardware family on the machine's address. Polls are counted at the simulator, so "within two
 * polls" is counted, not timed.
 */
import { MediaServer, type HardwareSnapshot, type SmcMap } from '@stagelink/core';
import { startSimulator, type ControlRequest, type Simulator } from '@stagelink/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { control, eventually } from './support/simulator.js';

const dialect = process.env['STAGELINK_SIM_DIALECT'] === 'r34' ? 'r34' : 'spec';
const EVERY_MS = 1000;
const STATS = '/api/chassis/stats';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function session() {
  const sim = await startSimulator({ scenario: 'session', port: 0, drivePort: 0, seed: 5, dialect });
  open.push(sim);
  const machines = sim.machines();
  const director = machines.find((each) => each.role === 'director');
  const actors = machines.filter((each) => each.role === 'actor');
  if (!director || actors.length < 2) throw new Error('the session has a director and two actors');
  const hosts = Object.fromEntries(machines.map(({ hostname, url }) => [hostname, new URL(url).host]));
  // On r34 the desk knows each machine's management address; in the documents a machine serves its own hardware.
  const smcs: SmcMap | undefined = sim.smc ? Object.fromEntries(machines.map(({ hostname, smcUrl }) => [hostname, { host: smcUrl ?? '' }])) : undefined;
  const ms = new MediaServer({ host: director.url, hosts, ...(smcs ? { smcs } : {}), timeoutMs: 5000 });
  open.push(ms);
  const polls = (hostname: string) => sim.arrivals.count('GET', STATS, hostname);
  return { sim, ms, director, actors, polls, control: (request: ControlRequest) => control(director.url, request) };
}

function watcher() {
  const seen: HardwareSnapshot[] = [];
  return { seen, onChange: (snapshot: HardwareSnapshot) => seen.push(snapshot), last: () => seen.at(-1) };
}

/** Waits until the snapshot matches, and says how many polls reached the machine meanwhile. */
async function pollsUntil(sim: Simulator, hostname: string, check: () => boolean, what: string): Promise<number> {
  const before = sim.arrivals.count('GET', STATS, hostname);
  await eventually(check, what, 10_000);
  return sim.arrivals.count('GET', STATS, hostname) - before;
}

describe(`hardware health (${dialect})`, () => {
  const faults = [
    { fault: 'fan', severity: 'error', reason: /^Fan 2 has stopped \(0 RPM\)$/ },
    { fault: 'overheat', severity: 'error', reason: /^CPU Temp is at \d+ °C, over its 90 °C error line$/ },
    { fault: 'power', severity: 'error', reason: /^Main Power Fault is set$/ },
    { fault: 'output', severity: 'warning', reason: /^the output card in slot 1 \(DP-4\) reports no signal$/ },
  ] as const;

  it('turns each fault into the snapshot severity and reasons within two polls, and back', async () => {
    const { sim, ms, actors, control } = await session();
    const actor = actors[0]?.hostname ?? '';
    const seen = watcher();
    const watch = ms.hardwareOf(actor).watch(seen.onChange, { everyMs: EVERY_MS });
    await eventually(() => seen.last()?.status === 'online', `${actor} is read`);
    expect(seen.last()).toMatchObject({ machine: actor, status: 'online', power: 'on', severity: 'ok', reasons: [], faults: [] });
    expect(seen.last()?.fans.map(({ sensor }) => sensor)).toEqual(['Fan 1', 'Fan 2']);
    expect(seen.last()?.temperatures.map(({ sensor }) => sensor)).toEqual(['CPU Temp', 'Inlet Temp']);
    expect(seen.last()?.outputs).toHaveLength(3);

    for (const { fault, severity, reason } of faults) {
      await control({ action: 'hardwareFault', hostname: actor, fault, on: true });
      const on = await pollsUntil(sim, actor, () => seen.last()?.severity === severity && (seen.last()?.reasons ?? []).some((each) => reason.test(each)), `${fault} shows`);
      expect(on, `polls until ${fault} showed`).toBeLessThanOrEqual(2);
      if (fault === 'power') expect(seen.last()?.faults).toEqual(['Main Power Fault']);
      await control({ action: 'hardwareFault', hostname: actor, fault, on: false });
      const off = await pollsUntil(sim, actor, () => seen.last()?.severity === 'ok', `${fault} clears`);
      expect(off, `polls until ${fault} cleared`).toBeLessThanOrEqual(2);
      expect(seen.last()?.reasons).toEqual([]);
    }
    expect(watch.current).toEqual(seen.last());
    watch.close();
  }, 60_000);

  it('shows an SMC that stops answering as offline, with no reading shown as now, and online again', async () => {
    const { sim, ms, actors, control } = await session();
    const actor = actors[0]?.hostname ?? '';
    const seen = watcher();
    const watch = ms.hardwareOf(actor).watch(seen.onChange, { everyMs: EVERY_MS });
    await eventually(() => seen.last()?.status === 'online', `${actor} is read`);

    await control({ action: 'smcSilent', hostname: actor, on: true });
    const silent = await pollsUntil(sim, actor, () => seen.last()?.status === 'offline', `${actor} shows offline`);
    expect(silent).toBeLessThanOrEqual(2);
    expect(seen.last()).toMatchObject({ status: 'offline', severity: 'error', power: undefined, fans: [], temperatures: [], outputs: [] });
    expect(seen.last()?.readAt).toBeUndefined();
    expect(seen.last()?.reasons[0]).toMatch(/management controller did not answer within 1 s/);

    await control({ action: 'smcSilent', hostname: actor, on: false });
    await eventually(() => seen.last()?.status === 'online' && seen.last()?.severity === 'ok', `${actor} answers again`);
    watch.close();
  });

  it('polls each machine once a period for any number of watchers (counted at the simulator)', async () => {
    const { sim, ms, actors, polls } = await session();
    const [first, second] = actors.map(({ hostname }) => hostname);
    if (!first || !second) throw new Error('two actors');
    const names = [first, first.toLowerCase(), ` ${first} `];
    const many = Array.from({ length: 30 }, (_, index) => ({ seen: watcher(), machine: index < 25 ? (names[index % 3] ?? first) : second }));
    const watches = many.map(({ seen, machine }) => ms.hardwareOf(machine).watch(seen.onChange, { everyMs: EVERY_MS }));
    await eventually(() => many.every(({ seen }) => seen.last()?.status === 'online'), 'every watcher is told');
    const started = Date.now();
    const [firstBefore, secondBefore] = [polls(first), polls(second)];
    await eventually(() => polls(first) - firstBefore >= 3, `${first} is polled three more times`);
    const periods = Math.ceil((Date.now() - started) / EVERY_MS) + 1;
    expect(polls(first) - firstBefore).toBeLessThanOrEqual(periods);
    expect(polls(second) - secondBefore).toBeLessThanOrEqual(periods + 1);
    // Every request of a poll once: stats, power status and cards.
    expect(sim.arrivals.count('GET', '/api/vfcs', first)).toBe(polls(first));
    expect(sim.arrivals.count('GET', '/api/chassis/power/status', first)).toBe(polls(first));
    for (const watch of watches) watch.close();
  });
});
