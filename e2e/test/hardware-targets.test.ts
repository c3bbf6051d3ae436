/**
 * Hardware calls go to the machine they name, never to "whoever directs now": the simulator's `session`
 * scenario, in the dialect of the run (STAGELINK_SIM_DIALECT). Each machine serves the hardware family: on its
 * own address in the documents' dialect (a login taken through the control endpoint), on a management controller
 * of its own with an account (HTTP Basic) on r34. Where a request landed is read from the simulator's request
 * log, which names the listener that answered it.
 */
import { AuthError, endpoints, HardwareTargetError, MediaServer, type SmcMap } from '@stagelink/core';
import { startSimulator, type LogEntry, type Simulator } from '@stagelink/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import { control } from './support/simulator.js';

type SessionMachineView = ReturnType<Simulator['machines']>[number];

const dialect = process.env['STAGELINK_SIM_DIALECT'] === 'r34' ? 'r34' : 'spec';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

interface Landed {
  method: string;
  path: string;
  status: number;
  server: string;
}

async function session() {
  const landed: Landed[] = [];
  const log = (entry: LogEntry) => {
    if (entry.event === 'request') landed.push({ method: String(entry.method), path: String(entry.path), status: Number(entry.status), server: String(entry['server']) });
  };
  const sim = await startSimulator({ scenario: 'session', port: 0, drivePort: 0, seed: 3, dialect, log });
  open.push(sim);
  const machine = (role: string): SessionMachineView => {
    const found = sim.machines().find((each) => each.role === role);
    if (!found) throw new Error(`the session has a ${role}`);
    return found;
  };
  const director = machine('director');
  const actor = machine('actor');
  // On r34 the machines' names (DIRECTOR01, ...) resolve nowhere: the desk maps them to addresses.
  const hosts = Object.fromEntries(sim.machines().map(({ hostname, url }) => [hostname, new URL(url).host]));
  /** Where each machine's hardware family is served: its SMC on r34, its own address in the documents. */
  const hardwareOf = (view: SessionMachineView): string => view.smcUrl ?? view.url;
  /** Writes that landed on a path, by the listener that answered them. */
  const writes = (path: string) => landed.filter((request) => request.method === 'POST' && request.path === path).map(({ server, status }) => ({ server, status }));
  return { sim, director, actor, hosts, hardwareOf, writes, landed };
}

/** Each machine's SMC and its account, as a desk that has the r34 machines' management addresses configures them. */
function smcsOf(sim: Simulator, account: boolean): SmcMap | undefined {
  const smc = sim.smc;
  if (!smc) return undefined;
  return Object.fromEntries(
    sim.machines().map(({ hostname, smcUrl }) => [hostname, { host: smcUrl ?? '', ...(account ? { username: smc.username, password: smc.password } : {}) }]),
  );
}

function client(sim: Simulator, host: string, hosts: Record<string, string>, account = true): MediaServer {
  const ms = new MediaServer({ host, followDirector: true, hosts, smcs: smcsOf(sim, account), timeoutMs: 5000 });
  open.push(ms);
  return ms;
}

/** The documents' machines take a login through the control endpoint; r34's SMCs take the account with each call. */
const logIn = (sim: Simulator) => (dialect === 'spec' ? control(sim.mediaServer.url, { action: 'login', loggedIn: true }) : Promise.resolve(undefined));

describe(`hardware calls name their machine (${dialect})`, () => {
  it('lands a power-off and an OLED message on the machine named, after the director role moved away from it', async () => {
    const { sim, director, actor, hosts, hardwareOf, writes } = await session();
    const ms = client(sim, director.url, hosts);
    await logIn(sim);
    await ms.transport.play({ name: 'main' });
    expect(ms.director?.hostname).toBe(director.hostname);

    await control(director.url, { action: 'moveDirector', to: actor.hostname });
    await ms.transport.stop({ name: 'main' });
    expect(ms.director?.hostname).toBe(actor.hostname);
    expect(ms.origin).toBe(actor.url);

    await ms.hardwareOf(director.hostname).oled.notify({ title: 'Stage', message: 'Powering down' });
    await ms.hardwareOf(director.hostname).chassis.powerOff({ confirm: true });

    expect(writes('/api/oled/notification')).toEqual([{ server: hardwareOf(director), status: 201 }]);
    expect(writes('/api/chassis/power/off')).toEqual([{ server: hardwareOf(director), status: 200 }]);
    expect(sim.state.hardware.oled.onScreen()).toMatchObject({ title: 'Stage', message: 'Powering down' });
  });

  it('refuses a hardware write that names no machine, before anything reaches the director', async () => {
    const { sim, director, actor, hosts } = await session();
    const ms = client(sim, director.url, hosts);
    await logIn(sim);
    await control(director.url, { action: 'moveDirector', to: actor.hostname });
    await ms.transport.stop({ name: 'main' });
    expect(ms.director?.hostname).toBe(actor.hostname);

    await expect(ms.hardware.chassis.powerOff({ confirm: true })).rejects.toBeInstanceOf(HardwareTargetError);
    await expect(ms.hardware.oled.notify({ title: '', message: 'Doors' })).rejects.toBeInstanceOf(HardwareTargetError);
    await expect(ms.hardware.chassis.whoami()).rejects.toBeInstanceOf(HardwareTargetError);

    expect(sim.arrivals.count('POST', '/api/chassis/power/off')).toBe(0);
    expect(sim.arrivals.count('POST', '/api/oled/notification')).toBe(0);
    expect(sim.arrivals.count('POST', '/api/chassis/whoami')).toBe(0);
    expect(sim.state.hardware.chassis.power).toBe('on');
  });

  it('lands on the machine that took the role when that one is named, and a call naming the old director on it', async () => {
    const { sim, director, actor, hosts, hardwareOf, writes } = await session();
    const ms = client(sim, director.url, hosts);
    await logIn(sim);
    await control(director.url, { action: 'moveDirector', to: actor.hostname });
    await ms.transport.stop({ name: 'main' });

    await ms.hardwareOf(actor.hostname.toLowerCase()).chassis.whoami();
    await ms.call(endpoints.powerOn, {}, { machine: director.hostname });

    expect(writes('/api/chassis/whoami')).toEqual([{ server: hardwareOf(actor), status: 200 }]);
    expect(writes('/api/chassis/power/on')).toEqual([{ server: hardwareOf(director), status: 200 }]);
  });

  it('sends the account, and the write is refused as login required without it', async () => {
    const { sim, director, actor, hosts, hardwareOf, writes } = await session();
    const withAccount = client(sim, director.url, hosts, true);
    const withoutAccount = client(sim, director.url, hosts, false);

    const refused = await withoutAccount.hardwareOf(actor.hostname).oled.notify({ title: '', message: 'Places' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AuthError);
    expect((refused as Error).message).toMatch(/login required/i);
    if (dialect === 'spec') {
      // The documents' machines have no accounts: the same call passes once logged in.
      await expect(withAccount.hardwareOf(actor.hostname).oled.notify({ title: '', message: 'Places' })).rejects.toBeInstanceOf(AuthError);
      await logIn(sim);
    }

    await withAccount.hardwareOf(actor.hostname).oled.notify({ title: '', message: 'Places' });

    expect(writes('/api/oled/notification').map(({ server }) => server)).toEqual(
      Array.from({ length: dialect === 'spec' ? 3 : 2 }, () => hardwareOf(actor)),
    );
    expect(writes('/api/oled/notification').at(-1)?.status).toBe(201);
    expect(sim.state.hardware.oled.onScreen()).toMatchObject({ message: 'Places' });
  });
});
