/**
 * Following the director of a session of real servers (the simulator's `session` scenario, both dialects): the
 * role moves and the module's cues, live values and `director` variable move with it; a machine it was given that
 * is off is passed over for the backup addresses.
 */
import { endpoints, variableIdOf } from '@stagelink/core';
import { takeLoopbackDnssdTurn, type Simulator } from '@stagelink/simulator';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { CompanionHost } from '../harness/testing.js';
import { control, startModule, startSim, untilReady } from './session.js';

let sim: Simulator | undefined;
const modules: CompanionHost[] = [];
/** Gives back this machine's turn at DNS-SD on loopback, for a session that announces itself there. */
let releaseTurn: (() => Promise<void>) | undefined;
// DNS-SD stays on loopback, which needs IFF_MULTICAST on lo (.ci/run sets it).
const loopbackMulticast = (Number(readFileSync('/sys/class/net/lo/flags', 'utf8')) & 0x1000) !== 0;

afterEach(async () => {
  await Promise.all(modules.splice(0).map(async (host) => host.destroy()));
  await sim?.close();
  sim = undefined;
  await releaseTurn?.();
  releaseTurn = undefined;
});

/** The session, announced over DNS-SD on loopback when asked: the test then holds the machine's turn, or it would hear other suites' sessions. */
async function session(options: { dnssd?: boolean } = {}): Promise<Simulator> {
  if (options.dnssd) releaseTurn = await takeLoopbackDnssdTurn();
  sim = await startSim(0, { scenario: 'session', ...options });
  return sim;
}

const machine = (from: Simulator, role: string, index = 0) => {
  const found = from.machines().filter((each) => each.role === role)[index];
  if (!found) throw new Error(`the session has no ${role} ${index + 1}`);
  return found;
};

/** The machine addresses setting: on r34 the session's machine names resolve nowhere. */
const hostsOf = (from: Simulator): string => from.machines().map(({ hostname, url }) => `${hostname}=${new URL(url).host}`).join('\n');

async function moduleOn(from: Simulator, config: Record<string, string | boolean>): Promise<CompanionHost> {
  const host = await startModule(from, { hosts: hostsOf(from), ...config });
  modules.push(host);
  return host;
}

describe('following the director', () => {
  it('moves its cues, live values and director variable to the machine the role moves to', async () => {
    const from = await session();
    const host = await moduleOn(from, { host: machine(from, 'actor').url });
    await untilReady(host);
    const [first, next] = [machine(from, 'director'), machine(from, 'actor', 1)];
    await host.waitFor(() => host.variables.get('director') === first.hostname, `director ${first.hostname}`);
    const nextFps = `machine_${variableIdOf(from.state.machines.all().find((each) => each.hostname === next.hostname)?.name ?? '')}_fps`;
    await host.waitFor(() => typeof host.variables.get(nextFps) === 'number', `a live FPS of ${next.hostname}`);

    await control(from, { action: 'moveDirector', to: next.hostname });

    await host.waitFor(() => host.variables.get('director') === next.hostname, `director ${next.hostname}`, 20_000);
    await host.waitFor(() => host.status?.status === 'ok', 'status ok at the new director', 20_000);
    // A machine that is not the director refuses transport commands: this one landing means it went to the director.
    await host.runAction('play', { transport: 'main' });
    await host.waitFor(() => host.variables.get('transport_main_playing') === true, 'main playing');
    await host.waitFor(() => typeof host.variables.get(nextFps) === 'number', `a live FPS of ${next.hostname} as director`, 20_000);
    expect(host.logs.some(({ message }) => message.includes(`The director moved from ${first.hostname} to ${next.hostname}`))).toBe(true);
  });

  it('lands a cue once on the machine that took over from the director it was given, once that one is stopped', async () => {
    const from = await session();
    const given = machine(from, 'director');
    const host = await moduleOn(from, { host: given.url });
    await untilReady(host);
    await host.waitFor(() => host.variables.get('director') === given.hostname, `director ${given.hostname}`);

    await control(from, { action: 'stopMachine', hostname: given.hostname }, machine(from, 'actor').url);
    const successor = machine(from, 'director');
    expect(successor.hostname).not.toBe(given.hostname);
    // The spec's bound for a client to follow a takeover.
    await host.waitFor(() => host.variables.get('director') === successor.hostname, `director ${successor.hostname}`, 10_000);
    await host.waitFor(() => host.status?.status === 'ok', 'status ok at the new director', 10_000);

    const cues = from.arrivals.count('POST', endpoints.play.path);
    await host.runAction('play', { transport: 'main' });
    // Only the director carries out a cue (the others refuse it): one arrival and main playing say it landed there.
    expect(from.arrivals.count('POST', endpoints.play.path) - cues).toBe(1);
    await host.waitFor(() => host.variables.get('transport_main_playing') === true, 'main playing');
  });

  it('finds the director through a backup address while the machine it was given is stopped', async () => {
    const from = await session();
    const off = machine(from, 'actor');
    await control(from, { action: 'stopMachine', hostname: off.hostname });

    const withBackup = await moduleOn(from, { host: off.url, backupHosts: machine(from, 'understudy').url });
    const without = await moduleOn(from, { host: off.url });

    await untilReady(withBackup);
    expect(withBackup.variables.get('director')).toBe(machine(from, 'director').hostname);
    await withBackup.runAction('play', { transport: 'main' });
    await withBackup.waitFor(() => withBackup.variables.get('transport_main_playing') === true, 'main playing');
    // Given only the stopped machine, a module has nobody to ask.
    await without.waitFor(() => without.status?.status === 'connection_failure', 'the module without a backup failing to connect');
  });

  it.runIf(loopbackMulticast)('finds the director by DNS-SD on the interface given while the machine it was given is stopped', async () => {
    const from = await session({ dnssd: true });
    const off = machine(from, 'actor');
    await control(from, { action: 'stopMachine', hostname: off.hostname });

    // The desk's address on the show network, here loopback, where the session announces itself; no backup address.
    const host = await moduleOn(from, { host: off.url, dnssd: true, dnssdInterface: '127.0.0.1' });
    await untilReady(host);
    expect(host.variables.get('director')).toBe(machine(from, 'director').hostname);
    await host.runAction('play', { transport: 'main' });
    await host.waitFor(() => host.variables.get('transport_main_playing') === true, 'main playing');
  });
});
