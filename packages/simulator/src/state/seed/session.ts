import type { SessionMachine } from '@stagelink/core';
import type { FailoverSetup } from '../failover.js';
import { HEALTH_CATEGORIES, type MachineReadings } from '../health.js';
import { MachineRoster } from '../machines.js';
import type { Notice } from '../notifications.js';
import type { SeededRandom } from '../random.js';
import type { UidSource } from '../uids.js';
import type { ModelScenario } from '../session-state.js';
import type { Dialect } from '../../options.js';

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

const MODEL_ONLY_HOSTS = { actors: ['actor-1', 'actor-2'], understudies: ['understudy-1'] } as const;

/**
 * Shipping machines are named like Windows machines, which a control desk usually cannot resolve: a client must
 * keep using the address it was given. The `session` scenario keeps its loopback addresses, so each machine
 * stays reachable by the name the session gives it.
 */
const R34_HOSTS = { director: 'DIRECTOR01', solo: 'MEDIASERVER01', actors: ['ACTOR01', 'ACTOR02'], understudies: ['UNDERSTUDY01'] } as const;

/**
 * `demo`: this process is the director of a session that also lists two actors and one understudy covering
 * both, so failover works. `solo`: this process runs alone. This machine's hostname is the address it listens
 * on, so a client following `director.hostname` reaches it; the other machines exist only in the model.
 * `session`: the same session, but every machine is reachable on its loopback alias (SESSION_HOSTS).
 */
export function seedSession(scenario: ModelScenario, listenHost: string, uids: UidSource, random: SeededRandom, dialect: Dialect = 'spec'): SessionSeed {
  const named = dialect === 'r34' && scenario !== 'session';
  const machine = (name: string, host: string, type: string): SessionMachine => ({
    uid: uids.next(),
    name,
    hostname: host,
    type,
    guiMode: 'normal',
    guiVisible: true,
  });
  const solo = scenario === 'solo';
  const hostname = named ? (solo ? R34_HOSTS.solo : R34_HOSTS.director) : listenHost;
  const local = solo ? machine('Media server', hostname, 'solo') : machine('Director', hostname, 'director');
  const hosts = scenario === 'session' ? SESSION_HOSTS : named ? R34_HOSTS : MODEL_ONLY_HOSTS;
  const actors = solo ? [] : hosts.actors.map((host, index) => machine(`Actor ${index + 1}`, host, 'actor'));
  const understudies = solo ? [] : hosts.understudies.map((host, index) => machine(`Understudy ${index + 1}`, host, 'understudy'));
  const roster = new MachineRoster({ local, solo, isDirectorDedicated: !solo, actors, understudies });
  const all = roster.all();
  const readings = new Map(all.map((each) => [each.uid, healthyReadings(random)]));
  const notices = new Map<string, Notice[]>();
  const troubled = actors[1];
  if (troubled) {
    readings.get(troubled.uid)?.states.splice(2, 1, { name: 'Genlock', detail: 'Genlock reference unstable', category: 'Genlock', severity: 'warning' });
    notices.set(troubled.uid, [{ summary: 'Genlock unstable', detail: 'The genlock reference drifted twice in the last hour.' }]);
  }
  const understudy = understudies[0];
  return {
    roster,
    failover: {
      timeoutSeconds: 10,
      normalPreset: 'Default routing',
      failoverPreset: 'Failover routing',
      targets: new Map(understudy ? actors.map((actor) => [actor.uid, understudy.uid]) : []),
    },
    readings,
    notices,
    addresses: new Map(all.map((each, index) => [each.uid, index === 0 ? listenAddress(listenHost) : addressOf(scenario, each, index)])),
  };
}

function healthyReadings(random: SeededRandom): MachineReadings {
  return {
    averageFPS: random.between(59.6, 60, 2),
    videoDroppedFrames: random.integer(0, 3),
    videoMissedFrames: random.integer(0, 2),
    states: HEALTH_CATEGORIES.map((category) => ({ name: category, detail: HEALTHY_DETAILS[category], category, severity: 'ok' })),
  };
}

const isAddress = (host: string): boolean => /^\d{1,3}(\.\d{1,3}){3}$/.test(host);

/** This machine's address: the one it listens on. */
function listenAddress(host: string): string {
  return isAddress(host) ? host : '127.0.0.1';
}

/** Machines that exist only in the model get addresses of a venue network; real ones their own. */
function addressOf(scenario: ModelScenario, machine: SessionMachine, index: number): string {
  return scenario === 'session' && isAddress(machine.hostname) ? machine.hostname : `10.0.0.${10 + index}`;
}
