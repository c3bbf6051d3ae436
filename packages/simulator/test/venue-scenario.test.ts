import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { livePresets, MediaServer, type LiveRequest, type LiveStatus } from '@stagelink/core';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/cli-args.js';
import { OptionError, resolveOptions } from '../src/options.js';
import { startSimulator, type Simulator } from '../src/index.js';
import type { Dialect } from '../src/options.js';

/** The `venue` scenario over real sockets: one director answering for N machines and serving their monitors. */

const CLI = fileURLToPath(new URL('../dist/cli.mjs', import.meta.url));
const open: { close(): Promise<void> }[] = [];

afterEach(async () => {
  for (const each of open.splice(0).reverse()) await each.close();
});

async function venue(dialect: Dialect, machines?: number, transports?: number): Promise<{ sim: Simulator; ms: MediaServer }> {
  const sim = await startSimulator({ scenario: 'venue', dialect, port: 0, drivePort: 0, ...(machines === undefined ? {} : { machines }), ...(transports === undefined ? {} : { transports }) });
  open.push(sim);
  const ms = new MediaServer({ host: sim.mediaServer.url });
  open.push(ms);
  return { sim, ms };
}

/** The first `count` values of a live request, with the status the subscription reported meanwhile. */
async function values(ms: MediaServer, request: LiveRequest, count: number): Promise<{ values: unknown[]; statuses: LiveStatus[] }> {
  const seen: unknown[] = [];
  const statuses: LiveStatus[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fewer than ${count} values within 10 s (${seen.length})`)), 10_000);
    const subscription = ms.live.subscribe(
      { ...request, updateFrequencyMs: 100 },
      ({ value }) => {
        seen.push(value);
        if (seen.length < count) return;
        clearTimeout(timer);
        subscription.close();
        resolve();
      },
      { onError: (error) => reject(error), onStatus: (status) => statuses.push(status) },
    );
  });
  return { values: seen, statuses };
}

describe('the venue scenario', () => {
  it('takes a number of machines for the venue alone, 20 by default', () => {
    expect(resolveOptions({ scenario: 'venue' }).machines).toBe(20);
    expect(resolveOptions({ scenario: 'venue', machines: 250 }).machines).toBe(250);
    expect(resolveOptions({ scenario: 'demo' }).machines).toBeUndefined();
    expect(() => resolveOptions({ scenario: 'demo', machines: 5 })).toThrow(/venue scenario only/);
    expect(() => resolveOptions({ scenario: 'venue', machines: 0 })).toThrow(OptionError);
    expect(() => resolveOptions({ scenario: 'venue', machines: 501 })).toThrow(/1 to 500/);
    expect(parseCliArgs(['--scenario', 'venue', '--machines', '50'])).toMatchObject({ options: { scenario: 'venue', machines: 50 } });
    expect(() => parseCliArgs(['--machines', 'many'])).toThrow(/--machines must be a whole number/);
  });

  it('takes a number of transports for the venue alone, the demo show\'s three by default', () => {
    expect(resolveOptions({ scenario: 'venue' }).transports).toBe(3);
    expect(resolveOptions({ scenario: 'venue', transports: 20 }).transports).toBe(20);
    expect(resolveOptions({ scenario: 'demo' }).transports).toBeUndefined();
    expect(() => resolveOptions({ scenario: 'solo', transports: 20 })).toThrow(/number of transports applies to the venue scenario only/);
    expect(() => resolveOptions({ scenario: 'venue', transports: 2 })).toThrow(/3 to 100/);
    expect(() => resolveOptions({ scenario: 'venue', transports: 101 })).toThrow(/3 to 100/);
    expect(parseCliArgs(['--scenario', 'venue', '--transports', '20'])).toMatchObject({ options: { scenario: 'venue', transports: 20 } });
    expect(() => parseCliArgs(['--transports', 'lots'])).toThrow(/--transports must be a whole number/);
  });

  it.each<[Dialect, string]>([
    ['spec', 'transportManager:"transport 20"'],
    ['r34', 'transportmanager:transport_20'],
  ])('seeds 20 transports on the Main show set list, the others\' uids unchanged, each with a player on the stream, in the %s dialect', async (dialect, object) => {
    const { ms } = await venue(dialect, undefined, 20);
    const { ms: usual } = await venue(dialect);
    const { transports } = await ms.transport.transports();
    expect(transports.map((transport) => transport.name)).toEqual(['main', 'side screens', 'lobby', ...Array.from({ length: 17 }, (_, index) => `transport ${index + 4}`)]);
    expect(transports.slice(0, 3)).toEqual((await usual.transport.transports()).transports);
    expect((await ms.transport.setLists()).map((setList) => setList.name)).toEqual(['Main show', 'Side screens', 'Lobby']);
    expect((await ms.status.session()).actors).toEqual((await usual.status.session()).actors);
    const last = transports.at(-1);
    expect(last).toMatchObject({ playmode: 'Stop', currentTrack: { name: 'Preshow' }, setList: { name: 'Main show' } });

    await ms.transport.gotoTime({ transport: { name: 'transport 20' }, time: 100, playmode: 'Play' });
    const { values: [playhead] } = await values(ms, { object, properties: ['object.player.tRender'] }, 1);
    expect(playhead).toBeGreaterThanOrEqual(100);
  });

  it.each<[Dialect, string, string, string]>([
    ['spec', '127.0.0.1', 'actor-1', 'understudy-1'],
    ['r34', 'DIRECTOR01', 'ACTOR01', 'UNDERSTUDY01'],
  ])('lists N machines in status/session and status/health, in the %s dialect', async (dialect, director, firstActor, understudy) => {
    const { ms } = await venue(dialect, 30);
    const session = await ms.status.session();
    expect(session.director?.hostname).toBe(director);
    expect(session.actors).toHaveLength(28);
    expect(session.actors[0]?.hostname).toBe(firstActor);
    expect(session.understudies.map((machine) => machine.hostname)).toEqual([understudy]);
    const health = await ms.status.health();
    expect(health).toHaveLength(30);
    expect(new Set(health.map((entry) => entry.machine.hostname)).size).toBe(30);
  });

  it.each<Dialect>(['spec', 'r34'])('serves machine k\'s FPS as a remote monitor through core\'s remoteFps, in the %s dialect', async (dialect) => {
    const { sim, ms } = await venue(dialect);
    const hostnames = sim.state.machines.hostnames();
    expect(hostnames).toHaveLength(20);
    const [machine12, machine17] = [hostnames[12] ?? '', hostnames[17] ?? ''];
    // Any case of the hostname reaches the machine (r34 names nodes in upper case).
    const first = await values(ms, livePresets.remoteFps(machine12.toLowerCase()), 6);
    const second = await values(ms, livePresets.remoteFps(machine17), 6);
    for (const { values: seen, statuses } of [first, second]) {
      expect(seen.every((value) => typeof value === 'number' && value > 40 && value <= 60)).toBe(true);
      expect(new Set(seen).size, 'values change').toBeGreaterThan(1);
      expect(statuses).not.toContain('stale');
    }
    expect(first.values, 'each machine has its own values').not.toEqual(second.values);
  });

  it('tells a listener every value it sends, with its pair, as a benchmark times them', async () => {
    const { sim, ms } = await venue('spec', 3);
    const told: unknown[] = [];
    const stop = sim.live.onValueSent(({ object, value }) => {
      if (object.includes('"actor-1:svc"')) told.push(value);
    });
    const { values: received } = await values(ms, livePresets.remoteFps('actor-1'), 4);
    stop();
    expect(told.slice(0, 4)).toEqual(received);
  });

  it('lists every machine but the director as a remote node in r34', async () => {
    const { sim, ms } = await venue('r34', 5);
    const { values: [nodes] } = await values(ms, { object: 'subsystem:MonitoringManager', properties: ['object.remoteNodes()'] }, 1);
    expect(nodes).toEqual(sim.state.machines.hostnames().slice(1).map((hostname) => `${hostname}:d3`));
  });

  it('names the machines and their roles in the ready line of `stagelink-sim --scenario venue --machines 4`', async () => {
    const child = spawn(process.execPath, [CLI, '--scenario', 'venue', '--machines', '4', '--dialect', 'r34', '--port', '0', '--drive-port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    open.push({ close: async () => void (child.exitCode === null && child.kill('SIGTERM') && (await once(child, 'exit'))) });
    const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    const ready = JSON.parse(line) as { scenario: string; machines: { hostname: string; role: string }[] };
    expect(ready.scenario).toBe('venue');
    expect(ready.machines).toEqual([
      { hostname: 'DIRECTOR01', role: 'director' },
      { hostname: 'ACTOR01', role: 'actor' },
      { hostname: 'ACTOR02', role: 'actor' },
      { hostname: 'UNDERSTUDY01', role: 'understudy' },
    ]);
  });
});
