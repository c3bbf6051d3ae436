/** A late cue in the show log and the report: at the time it was taken, not when its answer came. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readShowLog, type ShowLogRecord } from '@stagelink/core';
import { simControl } from '@stagelink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bridge } from '../../src/index.js';
import { buildShowReport } from '../../src/report/show-report.js';
import { MOSQUITTO_MISSING } from '../../src/testing.js';
import { startVenue, type TestVenue } from '../support/venue.js';
import { Watcher, type Received } from '../support/watcher.js';

if (MOSQUITTO_MISSING) console.warn(`skipped: ${MOSQUITTO_MISSING}`);

const PREFIX = 'test/command-time';
const MAX_COMMAND_AGE_MS = 2000;
/** Longer than the cue's whole deadline: its answer comes after the bridge stopped waiting for it. */
const ANSWER_LATE_MS = MAX_COMMAND_AGE_MS + 1500;
const GOTOTRACK = '/api/session/transport/gototrack';

type CommandLine = ShowLogRecord & { kind: 'command'; id?: string | null };

describe.skipIf(MOSQUITTO_MISSING)('commands in the show log, through a real Mosquitto', () => {
  let venue: TestVenue;
  let bridge: Bridge;
  let desk: Watcher;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stagelink-command-time-'));
    venue = await startVenue();
    desk = await Watcher.connect(venue.broker.url, [`${PREFIX}/#`]);
    bridge = await venue.startBridge(PREFIX, { followDirector: false, record: dir, maxCommandAgeMs: MAX_COMMAND_AGE_MS });
    await desk.waitFor((message) => message.topic === `${PREFIX}/transports/main/state`, 10_000, 0, 'the main transport');
  });

  afterAll(async () => {
    await bridge?.close();
    await desk?.close();
    await venue?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const resultOf = (id: string) => (message: Received) => message.topic === `${PREFIX}/result` && (message.json as { id?: string }).id === id;

  /** Publishes a command as a desk does; answers when it was published. */
  async function publish(command: string, id: string, body: Record<string, unknown>): Promise<number> {
    const at = Date.now();
    await desk.client.publishAsync(`${PREFIX}/cmd/${command}`, JSON.stringify({ ...body, id, sentAt: at }), { qos: 1 });
    return at;
  }

  it('stamps a late cue with the time it was taken, and the report lists commands in the order they were taken', async () => {
    const control = (ms: number) => simControl(venue.session.sim.mediaServer.url, { action: 'slowAnswer', ms, path: GOTOTRACK });
    const late = `late-${Date.now()}`;
    const refused = `refused-${Date.now()}`;
    await control(ANSWER_LATE_MS);
    let lateResult: Received;
    try {
      const lateSent = await publish('transport/gototrack', late, { transport: 'main', track: 'Preshow', playmode: 'play' });
      // Taken after the late cue, refused at once: its answer comes long before the late cue's.
      await publish('transport/nosuchcommand', refused, { transport: 'main' });
      const refusedResult = await desk.waitFor(resultOf(refused), 10_000, 0, 'the refused command');
      lateResult = await desk.waitFor(resultOf(late), 15_000, 0, 'the late cue');
      expect(refusedResult.at).toBeLessThan(lateResult.at);

      await bridge.close();
      const commands: CommandLine[] = [];
      for await (const record of readShowLog(dir)) if (record.kind === 'command') commands.push(record);
      const lateLine = commands.find((record) => record.id === late);
      const refusedLine = commands.find((record) => record.id === refused);
      expect(lateLine).toMatchObject({ command: 'transport/gototrack', ok: false });
      expect(refusedLine).toMatchObject({ command: 'transport/nosuchcommand', ok: false });
      const lateAt = Date.parse(lateLine?.t ?? '');
      // Nearer the moment it was published than the moment its answer came (at least the deadline later).
      expect(lateAt).toBeGreaterThanOrEqual(lateSent - 1000);
      expect(lateAt - lateSent).toBeLessThan(lateResult.at - lateAt);
      // The time taken is kept: from taking the cue to its answer.
      expect(lateLine?.ms).toBeGreaterThanOrEqual(MAX_COMMAND_AGE_MS - 100);
      expect(lateAt).toBeLessThan(Date.parse(refusedLine?.t ?? ''));

      const report = await buildShowReport(dir);
      const ids = report.commands.map((row) => row.id).filter((id) => id === late || id === refused);
      expect(ids).toEqual([late, refused]);
      expect(report.commands.find((row) => row.id === late)?.at).toBe(lateAt);
    } finally {
      await control(0);
    }
  });
});
