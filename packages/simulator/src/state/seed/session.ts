import type { SessionMachine } from '@stagelink/core';
import type { FailoverSetup } from '../failover.js';
import { HEALTH_CATEGORIES, type MachineReadings } from '../health.js';
import { MachineRoster } from '../machines.js';
import type { Notice } from '../notifications.js';
import type { SeededRandom } from '../random.js';
import type { UidSource } from '../uids.js';

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

/**
 * `demo`: this process is the director of a session that also lists two actors and one understudy covering
 * both, so failover works. `solo`: this process runs alone. This machine's hostname is the address it listens
 * on, so a client following `director.hostname` reaches it; the other machines exist only in the model.
 */
export function seedSession(scenario: 'demo' | 'solo', hostname: string, uids: UidSource, random: SeededRandom): SessionSeed {
  const machine = (name: string, host: string, type: string): SessionMachine => ({
    uid: uids.next(),
    name,
    hostname: host,
    type,
    guiMode: 'normal',
    guiVisible: true,
  });
  const solo = scenario === 'solo';
  const local = solo ? machine('Media server', hostname, 'solo') : machine('Director', hostname, 'director');
  const actors = solo ? [] : [machine('Actor 1', 'actor-1', 'actor'), machine('Actor 2', 'actor-2', 'actor')];
  const understudies = solo ? [] : [machine('Understudy 1', 'understudy-1', 'understudy')];
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
    addresses: new Map(all.map((each, index) => [each.uid, index === 0 ? localAddress(hostname) : `10.0.0.${10 + index}`])),
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

function localAddress(hostname: string): string {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) ? hostname : '127.0.0.1';
}
