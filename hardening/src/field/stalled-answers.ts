import { isUnreachable, MediaServer } from '@stagelink/core';
import type { Random } from '../gen/random.js';
import { brief } from '../report/clear-error.js';
import type { Tally } from '../report/tally.js';
import { settleWithin } from '../support/deadline.js';
import type { FieldTarget } from './target.js';

/** The deadline of every call here; a stalled answer must fail by then, plus slack for a busy machine. */
const DEADLINE_MS = 1500;
const SLACK_MS = 2000;
const STALLED = 'STAGELINK_ERR_STALLED_ANSWER';
/** Paths stalled at once in each round. */
const AT_ONCE = 3;

type Read = (ms: MediaServer) => Promise<unknown>;

/** The lists and readings front ends poll: large enough that an MTU mismatch stops them mid-body. */
const READS: Readonly<Record<string, Read>> = {
  '/api/session/transport/transports': (ms) => ms.transport.transports(),
  '/api/session/transport/activetransport': (ms) => ms.transport.activeTransport(),
  '/api/session/transport/setlists': (ms) => ms.transport.setLists(),
  '/api/session/transport/tracks': (ms) => ms.transport.tracks(),
  '/api/session/transport/annotations': (ms) => ms.transport.annotations({ name: 'Intro' }),
  '/api/session/status/health': (ms) => ms.status.health(),
  '/api/session/status/notifications': (ms) => ms.status.notifications(),
  '/api/session/status/project': (ms) => ms.status.project(),
  '/api/session/notes': (ms) => ms.notes.list(),
};

/**
 * Answers that stop after their headers and a random number of body bytes (an MTU mismatch on the show network),
 * a few paths at a time. Every read of a stalled path fails within its deadline with STAGELINK_ERR_STALLED_ANSWER
 * and is not "unreachable"; meanwhile the session (a small answer) and a cue still get through, and the client
 * does not report its link down.
 */
export async function stalledAnswers(target: FieldTarget, random: Random, rounds: number, tally: Tally): Promise<void> {
  const ms = new MediaServer({ host: target.url, timeoutMs: DEADLINE_MS });
  try {
    for (let round = 0; round < rounds; round++) {
      const paths = pickDistinct(random, Object.keys(READS), AT_ONCE);
      const stalls = await Promise.all(paths.map(async (path) => ({ path, afterBytes: randomCut(random, await bodyLength(target.url + path)) })));
      for (const stall of stalls) await target.control({ action: 'stallBody', path: stall.path, on: true, ...(stall.afterBytes === undefined ? {} : { afterBytes: stall.afterBytes }) });
      const where = (what: string): string => `${what} (seed ${random.seed}, round ${round + 1})`;
      await Promise.all([
        ...stalls.map((stall) => readStalled(ms, stall.path, tally, where(`GET ${stall.path} stalled after ${stall.afterBytes ?? 'half its'} bytes`))),
        smallReadAnswers(ms, tally, where('status/session while large answers stall')),
        cueLands(ms, tally, where('a cue while large answers stall')),
      ]);
      tally.expect(ms.linkDown === undefined, where(`the client reported its link down (${ms.linkDown?.reason ?? ''}) while only large answers stalled`));
      for (const stall of stalls) await target.control({ action: 'stallBody', path: stall.path, on: false });
    }
  } finally {
    await ms.close();
  }
}

async function readStalled(ms: MediaServer, path: string, tally: Tally, what: string): Promise<void> {
  tally.inputs++;
  const read = READS[path];
  if (!read) throw new Error(`no read for ${path}`);
  const started = performance.now();
  const outcome = await settleWithin(read(ms), DEADLINE_MS + SLACK_MS + 30_000);
  const tookMs = Math.round(performance.now() - started);
  if (outcome.kind === 'timeout') {
    tally.silentLosses++;
    tally.finding(`${what}: never settled`);
    return;
  }
  if (outcome.kind === 'resolved') {
    tally.finding(`${what}: resolved from part of its body`);
    return;
  }
  const error = outcome.error as { code?: unknown; message?: unknown };
  if (error.code !== STALLED) tally.finding(`${what}: failed with ${String(error.code)} instead of ${STALLED}: ${brief(String(error.message))}`);
  else if (isUnreachable(outcome.error)) tally.finding(`${what}: its StalledAnswerError counts as unreachable`);
  else if (tookMs > DEADLINE_MS + SLACK_MS) tally.finding(`${what}: failed after ${tookMs} ms, past its ${DEADLINE_MS} ms deadline`);
  else tally.errors++;
}

async function smallReadAnswers(ms: MediaServer, tally: Tally, what: string): Promise<void> {
  tally.inputs++;
  const outcome = await settleWithin(ms.status.session(), DEADLINE_MS + SLACK_MS);
  if (outcome.kind === 'resolved') tally.ok++;
  else tally.finding(`${what}: ${outcome.kind === 'timeout' ? 'no answer' : brief(String(outcome.error))}`);
}

async function cueLands(ms: MediaServer, tally: Tally, what: string): Promise<void> {
  tally.inputs++;
  const outcome = await settleWithin(ms.transport.play({ name: 'lobby' }), DEADLINE_MS + SLACK_MS);
  if (outcome.kind === 'resolved') tally.ok++;
  else tally.finding(`${what}: ${outcome.kind === 'timeout' ? 'no answer' : brief(String(outcome.error))}`);
}

/** The length of a whole answer to `url`, read before it is stalled. */
async function bodyLength(url: string): Promise<number> {
  const response = await fetch(url.replace('/annotations', '/annotations?name=Intro'), { signal: AbortSignal.timeout(5000) });
  return (await response.arrayBuffer()).byteLength;
}

/** Where the body stops: anywhere from right after the headers to one byte short, or the simulator's half. */
function randomCut(random: Random, length: number): number | undefined {
  if (random.chance(0.15)) return undefined;
  return random.integer(0, Math.max(0, length - 2));
}

function pickDistinct<T>(random: Random, items: readonly T[], count: number): T[] {
  const left = [...items];
  const picked: T[] = [];
  while (picked.length < count && left.length > 0) picked.push(...left.splice(Math.floor(random.next() * left.length), 1));
  return picked;
}
