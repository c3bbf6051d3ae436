import type { HealthEntry, Machine, SessionInfo, Transport } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import { SessionMembers, type MembershipReads } from '../src/session-members.js';

const machine = (hostname: string): Machine => ({ uid: `uid-${hostname}`, hostname }) as Machine;
const session = (...hostnames: string[]): PromiseSettledResult<SessionInfo> => ({
  status: 'fulfilled',
  value: { isRunningSolo: false, director: machine(hostnames[0] ?? 'director'), actors: hostnames.slice(1).map(machine), understudies: [] } as unknown as SessionInfo,
});
const health = (...hostnames: string[]): PromiseSettledResult<HealthEntry[]> => ({ status: 'fulfilled', value: hostnames.map((hostname) => ({ machine: machine(hostname), status: { states: [] } }) as unknown as HealthEntry) });
const transports = (...names: string[]): PromiseSettledResult<Transport[]> => ({ status: 'fulfilled', value: names.map((name) => ({ name }) as Transport) });
const failed = { status: 'rejected', reason: new Error('read failed') } as const;

function round(reads: Partial<MembershipReads>): MembershipReads {
  return { session: failed, health: failed, transports: failed, ...reads };
}

describe('which machines and transports came and went', () => {
  it('adds what a successful read lists, from any read, once', () => {
    const members = new SessionMembers();
    expect(members.update(round({ session: session('d', 'a'), transports: transports('main') })).added).toEqual({ machines: [machine('d'), machine('a')], transports: ['main'] });
    const again = members.update(round({ session: session('d', 'a'), health: health('d', 'a', 'u'), transports: transports('main') }));
    expect(again.added).toEqual({ machines: [machine('u')], transports: [] });
    expect(again.removed).toEqual({ machines: [], transports: [] });
  });

  it('removes a machine only when both the session and its health answered without it, in any case', () => {
    const members = new SessionMembers();
    members.update(round({ session: session('d', 'a', 'u'), health: health('d', 'a', 'u') }));
    // A failed health read says nothing of who is there, nor does a failed session read.
    expect(members.update(round({ session: session('d', 'a') })).removed.machines).toEqual([]);
    expect(members.update(round({ health: health('d', 'a') })).removed.machines).toEqual([]);
    // Health still lists it (spelt otherwise): still there.
    expect(members.update(round({ session: session('d', 'a'), health: health('d', 'a', 'U') })).removed.machines).toEqual([]);
    const gone = members.update(round({ session: session('d', 'a'), health: health('d', 'a') }));
    expect(gone.removed.machines).toEqual(['u']);
    expect(members.machines).toEqual(['d', 'a']);
    // Back again: added again.
    expect(members.update(round({ session: session('d', 'a', 'u'), health: health('d', 'a', 'u') })).added.machines).toEqual([machine('u')]);
  });

  it('removes a transport only when a transports read succeeded without it; a first read removes nothing', () => {
    const members = new SessionMembers();
    expect(members.update(round({ transports: failed })).removed.transports).toEqual([]);
    expect(members.update(round({ transports: transports() })).removed).toEqual({ machines: [], transports: [] });
    members.update(round({ transports: transports('main', 'side screens') }));
    expect(members.update(round({ transports: failed })).removed.transports).toEqual([]);
    const renamed = members.update(round({ transports: transports('main', 'LED wall') }));
    expect(renamed.removed.transports).toEqual(['side screens']);
    expect(renamed.added.transports).toEqual(['LED wall']);
  });
});
