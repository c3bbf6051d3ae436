import type { SessionMachine } from '@stagelink/core';
import type { MachineHostnames } from '../dialect.js';
import { MachineRoster } from '../machines.js';
import type { SeededRandom } from '../random.js';
import type { UidSource } from '../uids.js';
import { healthyReadings, listenAddress, standardFailover, type SessionSeed } from './session.js';

/**
 * The `venue` scenario: this process directs a session of `machines` machines, the director included: the
 * others are actors and, from three machines on, the last is an understudy covering every actor. They exist in
 * the model only, on venue addresses (10.0.x.y): the director answers health and session for all of them and
 * serves their monitors as remote monitors, as a real director does. In a dialect with Windows machine names the
 * director keeps its name (`DIRECTOR01`) and the others are `ACTOR01`, ... and `UNDERSTUDY01`; otherwise the
 * director's hostname is the address it listens on and the others are `actor-1`, ... and `understudy-1`.
 */
export function seedVenue(machines: number, listenHost: string, uids: UidSource, random: SeededRandom, hostnames?: MachineHostnames): SessionSeed {
  const addresses = new Map<string, string>();
  const machine = (name: string, hostname: string, address: string, type: string): SessionMachine => {
    const made = { uid: uids.next(), name, hostname, type, guiMode: 'normal', guiVisible: true };
    addresses.set(made.uid, address);
    return made;
  };
  const others = Math.max(0, machines - 1);
  const understudyCount = machines >= 3 ? 1 : 0;
  const nameOf = (kind: 'actor' | 'understudy', index: number): string =>
    hostnames ? `${kind.toUpperCase()}${String(index + 1).padStart(2, '0')}` : `${kind}-${index + 1}`;
  const local = machine('Director', hostnames?.director ?? listenHost, listenAddress(listenHost), 'director');
  const actors = Array.from({ length: others - understudyCount }, (_, index) => machine(`Actor ${index + 1}`, nameOf('actor', index), venueAddress(index), 'actor'));
  const understudies = Array.from({ length: understudyCount }, (_, index) =>
    machine(`Understudy ${index + 1}`, nameOf('understudy', index), venueAddress(actors.length + index), 'understudy'),
  );
  const roster = new MachineRoster({ local, solo: false, isDirectorDedicated: true, actors, understudies });
  return {
    roster,
    failover: standardFailover(actors, understudies),
    readings: new Map(roster.all().map((each) => [each.uid, healthyReadings(random)])),
    notices: new Map(),
    addresses,
  };
}

/** The n-th machine's address on the venue network, 200 to a /24. */
function venueAddress(index: number): string {
  return `10.0.${1 + Math.floor(index / 200)}.${11 + (index % 200)}`;
}
