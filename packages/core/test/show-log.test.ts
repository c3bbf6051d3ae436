import { appendFile, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidInputError, readShowLog, ShowRecorder, showDayOf, type ShowLogRecord } from '../src/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'show-log-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A recorder whose clock the test moves: local times, as a venue's. */
function recorderAt(start: Date): { recorder: ShowRecorder; at: (date: Date) => void; errors: Error[]; writing: { told: number } } {
  let now = start;
  const errors: Error[] = [];
  const writing = { told: 0 };
  const recorder = new ShowRecorder({ dir, source: 'test 1.0', session: 'venue/main', now: () => now, onError: (error) => errors.push(error), onWriting: () => writing.told++ });
  return { recorder, at: (date) => (now = date), errors, writing };
}

async function readAll(path: string, options?: Parameters<typeof readShowLog>[1]): Promise<ShowLogRecord[]> {
  const records: ShowLogRecord[] = [];
  for await (const record of readShowLog(path, options)) records.push(record);
  return records;
}

describe('ShowRecorder', () => {
  it('writes one file per show day, a show past midnight staying in the day it started', async () => {
    const { recorder, at, writing } = recorderAt(new Date(2026, 10, 27, 23, 59, 0));
    recorder.record({ kind: 'director', machine: 'node-a' });
    at(new Date(2026, 10, 28, 1, 30, 0));
    recorder.record({ kind: 'link', status: 'offline' });
    at(new Date(2026, 10, 28, 7, 0, 0));
    recorder.record({ kind: 'link', status: 'online' });
    await recorder.close();

    expect((await readdir(dir)).sort()).toEqual(['show-2026-11-27.ndjson', 'show-2026-11-28.ndjson']);
    // Told once, at the first entry written: a new day's file is no news.
    expect(writing.told).toBe(1);
    const first = (await readFile(join(dir, 'show-2026-11-27.ndjson'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as ShowLogRecord);
    expect(first.map((record) => record.kind)).toEqual(['log', 'director', 'link']);
    expect(first[0]).toMatchObject({ kind: 'log', v: 1, source: 'test 1.0', session: 'venue/main', day: '2026-11-27' });
    // Local wall-clock time, greppable as the venue says it, and still one instant.
    expect(first[2]?.t).toMatch(/^2026-11-28T01:30:00\.000[+-]\d\d:\d\d$/);
    expect(Date.parse(first[2]?.t ?? '')).toBe(new Date(2026, 10, 28, 1, 30, 0).getTime());
  });

  it('keeps FPS at most 4 a second per machine and a running clock once a second, changes at once', async () => {
    const start = new Date(2026, 10, 27, 21, 0, 0).getTime();
    const { recorder, at } = recorderAt(new Date(start));
    let keptA = 0;
    for (let ms = 0; ms < 1000; ms += 50) {
      at(new Date(start + ms));
      if (recorder.record({ kind: 'fps', machine: 'node-a', value: 60 })) keptA++;
      recorder.record({ kind: 'fps', machine: 'node-b', value: 59 });
      recorder.record({ kind: 'clock', transport: 'main', status: 'online', playing: true, track: 'show', time: ms / 1000, section: ms < 600 ? 0 : 1 });
    }
    await recorder.close();
    expect(recorder.record({ kind: 'link', status: 'online' }), 'a closed recorder keeps nothing').toBe(false);
    const records = await readAll(dir);
    // What record() answered is what was written: a writer's count of records is the file's.
    expect(keptA).toBe(4);
    expect(records.filter((record) => record.kind === 'fps' && record.machine === 'node-a')).toHaveLength(4);
    expect(records.filter((record) => record.kind === 'fps' && record.machine === 'node-b')).toHaveLength(4);
    // The first tick, and the section change at 0.6 s: not the 18 ticks between.
    expect(records.filter((record) => record.kind === 'clock').map((record) => (record as { section?: number }).section)).toEqual([0, 1]);
  });

  it('says a folder it cannot write once, and goes on without throwing', async () => {
    const blocked = join(dir, 'blocked');
    await writeFile(blocked, 'a file where the folder should be');
    const errors: Error[] = [];
    const recorder = new ShowRecorder({ dir: blocked, source: 'test', onError: (error) => errors.push(error) });
    recorder.record({ kind: 'link', status: 'online' });
    recorder.record({ kind: 'link', status: 'offline' });
    await recorder.flush();
    await recorder.close();
    expect(errors).toHaveLength(1);
  });

  it('says when a folder it could not write is written again, and a failure after that once more', async () => {
    const blocked = join(dir, 'blocked');
    await writeFile(blocked, 'a file where the folder should be');
    let now = new Date(2026, 10, 27, 21, 0, 0);
    const told: string[] = [];
    const recorder = new ShowRecorder({ dir: blocked, source: 'test', now: () => now, onError: () => told.push('failed'), onWriting: () => told.push('writing') });
    recorder.record({ kind: 'link', status: 'online' });
    await recorder.flush();
    expect(told).toEqual(['failed']);

    // The folder is back: the file is opened again a few seconds after the failure, at the next entry.
    await rm(blocked);
    now = new Date(now.getTime() + 6000);
    recorder.record({ kind: 'link', status: 'offline' });
    recorder.record({ kind: 'link', status: 'online' });
    await recorder.flush();
    expect(told).toEqual(['failed', 'writing']);
    expect((await readAll(blocked)).map((record) => record.kind)).toEqual(['log', 'link', 'link']);

    // The next show day's file cannot be made: the same failure as before is said again.
    await rm(blocked, { recursive: true });
    await writeFile(blocked, 'a file where the folder should be');
    now = new Date(2026, 10, 28, 21, 0, 0);
    recorder.record({ kind: 'link', status: 'offline' });
    await recorder.flush();
    await recorder.close();
    expect(told).toEqual(['failed', 'writing', 'failed']);
  });
});

describe('readShowLog', () => {
  it('reads a file cut mid-line whole, less that line', async () => {
    const { recorder } = recorderAt(new Date(2026, 10, 27, 21, 0, 0));
    for (let i = 0; i < 3; i++) recorder.record({ kind: 'command', command: 'transport/play', transport: 'main', ok: true, id: `cue-${i}` });
    await recorder.close();
    const file = join(dir, 'show-2026-11-27.ndjson');
    const whole = await readFile(file, 'utf8');
    await truncate(file, whole.length - 20);
    const skipped: { line: number }[] = [];
    const records = await readAll(file, { onSkipped: (line) => skipped.push(line) });
    expect(records.map((record) => (record as { id?: string }).id)).toEqual([undefined, 'cue-0', 'cue-1']);
    expect(skipped).toEqual([expect.objectContaining({ line: 4 })]);
    // A writer appending after the crash starts on a new line: everything after the torn one reads.
    await appendFile(file, '\n{"t":"2026-11-27T21:05:00.000Z","kind":"link","status":"online"}\n');
    expect((await readAll(file)).at(-1)).toMatchObject({ kind: 'link', status: 'online' });
  });

  it('reads a folder in date order, between two times', async () => {
    const { recorder, at } = recorderAt(new Date(2026, 10, 28, 21, 0, 0));
    recorder.record({ kind: 'link', status: 'online' });
    at(new Date(2026, 10, 27, 21, 0, 0));
    recorder.record({ kind: 'link', status: 'connecting' });
    at(new Date(2026, 10, 27, 21, 10, 0));
    recorder.record({ kind: 'link', status: 'offline' });
    await recorder.close();
    const records = await readAll(dir, { from: new Date(2026, 10, 27, 21, 5, 0), to: new Date(2026, 10, 28, 22, 0, 0) });
    expect(records.map((record) => (record.kind === 'link' ? record.status : record.kind))).toEqual(['offline', 'log', 'online']);
  });

  it('refuses a log of a newer format, and a path with no log, saying what to do', async () => {
    const file = join(dir, 'show-2030-01-01.ndjson');
    await writeFile(file, '{"t":"2030-01-01T21:00:00.000Z","kind":"log","v":9,"source":"x","day":"2030-01-01"}\n');
    await expect(readAll(file)).rejects.toThrow(/format 9, newer .* update stagelink/);
    await expect(readAll(join(dir, 'missing'))).rejects.toBeInstanceOf(InvalidInputError);
  });
});

describe('showDayOf', () => {
  it('turns the day at 6 in the morning unless told otherwise', () => {
    expect(showDayOf(new Date(2026, 0, 1, 5, 59))).toBe('2025-12-31');
    expect(showDayOf(new Date(2026, 0, 1, 6, 0))).toBe('2026-01-01');
    expect(showDayOf(new Date(2026, 0, 1, 1, 0), 0)).toBe('2026-01-01');
  });
});
