import type { SessionMachine } from '@stagelink/core';
import type { FailoverSetup } from '../failover.js';
import { HEALTH_CATEGORIES, type MachineReadings } from '../health.js';
import { MachineRoster } from '../machines.js';
import type { Notice } from '../notifications.js';
import type { SeededRandom } from '../random.js';
import type { UidSource } from '../uids.js';
import type { ModelScenario } from '../session-state.js';
import type { MachineHostnames } from '../dialect.js';

export interface SessionSeed {
  roster: MachineRoster;
  failover: FailoverSetup;
  readings: Map<string, MachineReadings>;
  notices: Map<string, Notice[]>;
  /** IP address of each machine, by uid. */
  addresses: Map<string, string>;
}

const HEALTHY_DETAILS: Readonly<Record<(typeof HEALTH_CATEGORIES)[number], string>> = {
  Connection: 'Connected to the session',
  Output: 'All outputs running',
  Genlock: 'Locked to house sync',
  Devices: 'All devices responding',
};

/** The `session` scenario's machines: each one a real server on its own loopback alias, all on one port. */
export const SESSION_HOSTS = { director: '127.0.0.2', actors: ['127.0.0.3', '127.0.0.4'], understudies: ['127.0.0.5'] } as const;

/** Machines that exist only in the model, in the documents' dialect. */
const MODEL_ONLY_HOSTS = { actors: ['actor-1', 'actor-2'], understudies: ['understudy-1'] } as const;

/** Addresses of a venue network, for machines that exist only in the model. */
const VENUE_ADDRESSES = { actors: ['10.0.0.11', '10.0.0.12'], understudies: ['10.0.0.13'] } as const;

/**
 * `demo`: this process is the director of a session that also lists two actors and one understudy covering
 * both, so failover works. `solo`: this process runs alone. In the documents' dialect this machine's hostname is
 * the address it listens on, so a client following `director.hostname` reaches it; the other machines exist
 * only in the model. `session`: the same session, but every machine is reachable on its loopback alias
 * (SESSION_HOSTS), which is also its hostname unless the dialect names machines (`hostnames`): then a client
 * needs a map from hostname to address.
 */
export function seedSession(
  scenario: ModelScenario,
  listenHost: string,
  uids: UidSource,
  random: SeededRandom,
  hostnames?: MachineHostnames,
): SessionSeed {
  const solo = scenario === 'solo';
  const addresses = new Map<string, string>();
  const machine = (name: string, hostname: string, address: string, type: string): SessionMachine => {
    const made = { uid: uids.next(), name, hostname, type, guiMode: 'normal', guiVisible: true };
    addresses.set(made.uid, address);
    return made;
  };
  const at = scenario === 'session' ? SESSION_HOSTS : { director: listenAddress(listenHost), ...VENUE_ADDRESSES };
  const named = hostnames ?? (scenario === 'session' ? { ...SESSION_HOSTS, solo: listenHost } : { director: listenHost, solo: listenHost, ...MODEL_ONLY_HOSTS });
  const local = solo ? machine('Media server', named.solo, at.director, 'solo') : machine('Director', named.director, at.director, 'director');
  const part = (kind: 'actors' | 'understudies', label: string, type: string): SessionMachine[] =>
    solo ? [] : at[kind].map((address, index) => machine(`${label} ${index + 1}`, named[kind][index] ?? `${type}-${index + 1}`, address, type));
  const actors = part('actors', 'Actor', 'actor');
  const understudies = part('understudies', 'Understudy', 'understudy');
  const roster = new MachineRoster({ local, solo, isDirectorDedicated: !solo, actors, understudies });
  const all = roster.all();
  const readings = new Map(all.map((each) => [each.uid, healthyReadings(random)]));
  const notices = new Map<string, Notice[]>();
  const troubled = actors[1];
  if (troubled) {
    readings.get(troubled.uid)?.states.splice(2, 1, { name: 'Genlock', detail: 'Genlock reference unstable', category: 'Genlock', severity: 'warning' });
    notices.set(troubled.uid, [{ summary: 'Genlock unstable', detail: 'The genlock reference drifted twice in the last hour.' }]);
  }
  return {
    roster,
    failover: standardFailover(actors, understudies),
    readings,
    notices,
    addresses,
  };
}

/** Every actor fails over to the first understudy, with the routing presets a show file names. */
export function standardFailover(actors: readonly SessionMachine[], understudies: readonly SessionMachine[]): FailoverSetup {
  const understudy = understudies[0];
  return {
    timeoutSeconds: 10,
    normalPreset: 'Default routing',
    failoverPreset: 'Failover routing',
    targets: new Map(understudy ? actors.map((actor) => [actor.uid, understudy.uid]) : []),
  };
}

export function healthyReadings(random: SeededRandom): MachineReadings {
  return {
    averageFPS: random.between(59.6, 60, 2),
    videoDroppedFrames: random.integer(0, 3),
    videoMissedFrames: random.integer(0, 2),
    states: HEALTH_CATEGORIES.map((category) => ({ name: category, detail: HEALTHY_DETAILS[category], category, severity: 'ok' })),
  };
}

const isAddress = (host: string): boolean => /^\d{1,3}(\.\d{1,3}){3}$/.test(host);

/** This machine's address: the one it listens on. */
export function listenAddress(host: string): string {
  return isAddress(host) ? host : '127.0.0.1';
}
