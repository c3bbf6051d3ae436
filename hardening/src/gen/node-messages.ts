import { endpointList, TRANSPORT_COMMAND_NAMES } from '@stagelink/core';
import type { Random } from './random.js';
import { DANGEROUS_KEYS, hostileValue, type Wire } from './values.js';

/** The stagelink node types that take input messages (the liveupdate-in node has none, only settings). */
export const INPUT_NODE_TYPES = [
  'stagelink-transport',
  'stagelink-failover',
  'stagelink-drive-version',
  'stagelink-oled-out',
  'stagelink-status',
  'stagelink-request',
] as const;
export type InputNodeType = (typeof INPUT_NODE_TYPES)[number];

/** What the simulator seeded, so that some inputs are right and get a real answer. */
export interface ShowFacts {
  driveId: string;
  contentId: string;
  versionIds: string[];
}

/** Operations that move a show: the suite never confirms them while fuzzing, so none may reach the server. */
export const GUARDED_FAILOVER_OPERATIONS = ['failovermachine', 'restoremachine'] as const;
/** Catalogue endpoints that must never be sent without msg.confirm === true (see guarded-paths.ts). */
export const FUZZ_ENDPOINTS = endpointList.map((spec) => spec.id);

type FieldPools = Record<string, readonly Wire[]>;

/** Machines a hardware write may name: the simulator's address (its hostname in the documents' dialect), and worse. */
const HARDWARE_MACHINES: readonly Wire[] = ['127.0.0.1', '', 'ACTOR 01', '../smc'];

/** Per node: each msg property it reads, with values that are right for the simulated show. */
export function validFields(facts: ShowFacts): Record<InputNodeType, FieldPools> {
  const shared = { topic: ['cue', ''], payload: [1, 'go', true, null] };
  return {
    'stagelink-transport': {
      ...shared,
      command: TRANSPORT_COMMAND_NAMES,
      transport: ['main', 'lobby', 'side screens', 'stage', ['main', 'lobby'], { name: 'main' }],
      track: ['Intro', 'Act 1', 'Finale', 'Preshow', { name: 'Intro' }],
      section: ['0', '2', 1],
      note: ['House open', 'Confetti', 'Lights cue 12'],
      tagType: ['TC', 'CUE'],
      tagValue: ['Q1', 'Q2', '10:05:00:00'],
      time: [0, 10, '30'],
      timecode: ['10:05:00:00', '10:45:00:00'],
      frame: [0, 30, '15'],
      playmode: ['play', 'stop', 'loop section', 'playsection', ''],
      volume: [0, 0.25, 0.5, 1, '0.75'],
      brightness: [0, 0.5, 1],
      engaged: [true, false, 'true'],
      speed: [0.5, 1, '2'],
    },
    'stagelink-failover': {
      ...shared,
      // Guarded operations are generated too: unconfirmed, they must be refused without a request.
      operation: ['settings', 'understudytargets', 'applydefaultrouting', ...GUARDED_FAILOVER_OPERATIONS],
      machine: ['Actor 1', 'Actor 2', { name: 'Actor 1' }],
      confirm: [false, 'true', 1, 'yes'],
    },
    'stagelink-drive-version': {
      ...shared,
      operation: ['list', 'get', 'update'],
      driveId: [facts.driveId],
      contentId: [facts.contentId],
      versionId: facts.versionIds.length > 0 ? facts.versionIds : ['1'],
      label: ['hardening', 'v-next', ''],
      setActive: [false, 'false'],
      listMode: ['all', 'pages'],
      perPage: [5, 15, 100, '20'],
    },
    'stagelink-oled-out': {
      ...shared,
      // The machine whose screen it is: the simulator's own address, none (refused, nothing sent), and names that
      // are not hostnames (refused before any lookup).
      machine: HARDWARE_MACHINES,
      message: ['Doors in five', 'x'.repeat(250), 'Stand by'],
      title: ['Stage', ''],
      priority: [0, 1, 2],
      displayTime: [5, 10, '3'],
    },
    'stagelink-status': {
      ...shared,
      operation: ['health', 'notifications', 'project', 'session'],
      machine: ['actor-1', 'actor-2', '127.0.0.1', ''],
    },
    'stagelink-request': {
      ...shared,
      endpoint: FUZZ_ENDPOINTS,
      machine: HARDWARE_MACHINES,
      query: [{ name: 'Intro' }, '{"name":"Intro"}', { directory: 'video' }, { start: 0, count: 2 }],
      params: [{ mac: '02-53-4C-00-00-01' }, '{"mac":"02-53-4C-00-00-01"}'],
      body: [{ transports: [{ name: 'main' }] }, { title: 'x', message: 'y' }, [], {}],
      confirm: [false, 'true', 1, {}, null],
    },
  };
}

export type GeneratedMessage = Record<string, Wire>;

/**
 * One message for a node: a quarter entirely valid, half valid with one to three fields made hostile, the
 * rest junk (dangerous keys, unknown keys, or nothing at all). `confirm` is never `true`.
 */
export function generateMessage(random: Random, pools: FieldPools): GeneratedMessage {
  const roll = random.next();
  const names = Object.keys(pools);
  const message: GeneratedMessage = {};
  if (roll < 0.75) {
    for (const name of names) if (random.chance(0.6)) message[name] = random.pick(pools[name] ?? [null]);
  }
  if (roll >= 0.25 && roll < 0.75) {
    for (let count = random.integer(1, 3); count > 0; count--) message[random.pick(names)] = hostileValue(random);
  }
  if (roll >= 0.75 && roll < 0.95) {
    for (let count = random.integer(1, 4); count > 0; count--) {
      const key = random.chance(0.5) ? random.pick(DANGEROUS_KEYS) : random.pick(names);
      setOwn(message, key, hostileValue(random));
    }
  }
  if (random.chance(0.1)) setOwn(message, random.pick(DANGEROUS_KEYS), hostileValue(random));
  return message;
}

/** Sets a key as an own data property, `__proto__` included (plain assignment would set the prototype). */
export function setOwn(target: Record<string, Wire>, key: string, value: Wire): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
