import { MediaServer, type Playmode, type Transport } from '@stagelink/core';
import type { Random } from '../gen/random.js';
import { brief } from '../report/clear-error.js';
import type { Tally } from '../report/tally.js';
import { settleWithin } from '../support/deadline.js';
import { sleep } from '../support/time.js';
import type { FieldTarget } from './target.js';

/** Each cue's deadline; the director answers every cue later than that. */
const DEADLINE_MS = 1000;
/** Core's one re-read of the transports after a late cue may take this long on top of the deadline. */
const RE_READ_MS = 1000;
const SLACK_MS = 2000;
const LATE_CODES: ReadonlySet<unknown> = new Set(['STAGELINK_ERR_LATE_LANDED', 'STAGELINK_ERR_LATE_UNKNOWN']);
const CUE_PATH = '/api/session/transport/';

/** A cue, and what the transports must show when core says it landed; undefined when a read cannot tell. */
interface Cue {
  command: string;
  send(ms: MediaServer): Promise<void>;
  shows?(transports: readonly Transport[]): boolean;
  describe: string;
}

/**
 * Transport cues on a director that carries each out at once and answers only after the cue's deadline
 * (`slowAnswer` with a random delay). Each cue reaches the director exactly once (counted as it arrives, once
 * every late answer is due: a second one is a resent cue) and fails with a LateAnswerError, `landed` or
 * `unknown`; a cue said to have landed must show in the transports.
 */
export async function lateCues(target: FieldTarget, random: Random, cues: number, tally: Tally): Promise<void> {
  const ms = new MediaServer({ host: target.url, timeoutMs: DEADLINE_MS });
  const arrived = (path: string) => target.sim.arrivals.count('POST', path);
  /** Per cue path: the cues sent, and the arrivals before the first of them. */
  const sent = new Map<string, { count: number; before: number }>();
  const outcomes = { landed: 0, unknown: 0 };
  let latestAnswerMs = 0;
  try {
    for (let index = 0; index < cues; index++) {
      // A fresh reading of the transports, as a front end polls them: core compares the re-read with it.
      const { transports } = await ms.transport.transports();
      const cue = generateCue(random, transports);
      const lateMs = random.integer(DEADLINE_MS + 200, DEADLINE_MS + 2000);
      latestAnswerMs = Math.max(latestAnswerMs, lateMs);
      await target.control({ action: 'slowAnswer', ms: lateMs });
      const path = CUE_PATH + cue.command;
      const counted = sent.get(path) ?? { count: 0, before: arrived(path) };
      sent.set(path, { ...counted, count: counted.count + 1 });
      const where = `${cue.describe} answered ${lateMs} ms late (seed ${random.seed}, cue ${index + 1})`;
      await countLateCue(ms, cue, tally, where, outcomes);
    }
    await target.control({ action: 'slowAnswer', ms: 0 });
    // A cue sent again would go out after its late answer at the latest: wait until every one is due.
    await sleep(latestAnswerMs + 500);
    for (const [path, { count, before }] of sent) {
      const reached = arrived(path) - before;
      if (reached > count) {
        tally.resentCues += reached - count;
        tally.finding(`${reached} POST ${path} reached the director for ${count} sent (seed ${random.seed})`);
      } else tally.expect(reached === count, `only ${reached} POST ${path} reached the director for ${count} sent (seed ${random.seed})`);
    }
    tally.note(`late cues: ${outcomes.landed} reported landed, ${outcomes.unknown} outcome unknown`);
  } finally {
    await ms.close();
  }
}

async function countLateCue(ms: MediaServer, cue: Cue, tally: Tally, where: string, outcomes: { landed: number; unknown: number }): Promise<void> {
  tally.inputs++;
  const started = performance.now();
  const outcome = await settleWithin(cue.send(ms), DEADLINE_MS + RE_READ_MS + SLACK_MS + 30_000);
  const tookMs = Math.round(performance.now() - started);
  if (outcome.kind === 'timeout') {
    tally.silentLosses++;
    tally.finding(`${where}: never settled`);
    return;
  }
  if (outcome.kind === 'resolved') {
    tally.finding(`${where}: resolved as if answered in time`);
    return;
  }
  const error = outcome.error as { code?: unknown; message?: unknown; outcome?: unknown };
  if (!LATE_CODES.has(error.code)) {
    tally.finding(`${where}: failed with ${String(error.code)}, not a late answer: ${brief(String(error.message))}`);
    return;
  }
  if (tookMs > DEADLINE_MS + RE_READ_MS + SLACK_MS) tally.finding(`${where}: failed after ${tookMs} ms, past its deadline and the re-read`);
  if (error.outcome === 'landed') {
    outcomes.landed++;
    const { transports } = await ms.transport.transports();
    if (cue.shows && !cue.shows(transports)) {
      tally.finding(`${where}: reported landed, but the transports do not show it`);
      return;
    }
  } else outcomes.unknown++;
  tally.errors++;
}

const TRANSPORTS = ['main', 'side screens', 'lobby'] as const;
const PLAYMODES: readonly (Playmode | undefined)[] = [undefined, 'Play', 'Stop', 'Loop', 'PlaySection'];
const PLAY_COMMANDS = [
  { command: 'play', playmode: 'Play', send: (ms: MediaServer, name: string) => ms.transport.play({ name }) },
  { command: 'stop', playmode: 'Stop', send: (ms: MediaServer, name: string) => ms.transport.stop({ name }) },
  { command: 'playsection', playmode: 'PlaySection', send: (ms: MediaServer, name: string) => ms.transport.playSection({ name }) },
  { command: 'playloopsection', playmode: 'Loop', send: (ms: MediaServer, name: string) => ms.transport.playLoopSection({ name }) },
] as const;

/** A go-to-track to another track of a transport's set list (often), a play-state cue, or a next-track cue. */
function generateCue(random: Random, transports: readonly Transport[]): Cue {
  const transport = random.pick(transports.filter((candidate) => TRANSPORTS.includes(candidate.name as (typeof TRANSPORTS)[number])));
  const roll = random.next();
  if (roll < 0.5) {
    const others = transport.setList.tracks.filter((track) => track.name !== transport.currentTrack.name);
    const track = random.pick(others.length > 0 ? others : transport.setList.tracks).name;
    const playmode = random.pick(PLAYMODES);
    return {
      command: 'gototrack',
      send: (ms) => ms.transport.gotoTrack({ transport: { name: transport.name }, track: { name: track }, ...(playmode ? { playmode } : {}) }),
      shows: (now) => showing(now, transport.name, (shown) => shown.currentTrack.name === track && (playmode === undefined || shown.playmode === playmode)),
      describe: `gototrack ${transport.name} → ${track}${playmode ? ` (${playmode})` : ''}`,
    };
  }
  if (roll < 0.9) {
    const { command, playmode, send } = random.pick(PLAY_COMMANDS);
    return { command, send: (ms) => send(ms, transport.name), shows: (now) => showing(now, transport.name, (shown) => shown.playmode === playmode), describe: `${command} ${transport.name}` };
  }
  return { command: 'gotonexttrack', send: (ms) => ms.transport.gotoNextTrack({ transport: { name: transport.name } }), describe: `gotonexttrack ${transport.name}` };
}

function showing(transports: readonly Transport[], name: string, shows: (transport: Transport) => boolean): boolean {
  const transport = transports.find((candidate) => candidate.name === name);
  return transport !== undefined && shows(transport);
}
