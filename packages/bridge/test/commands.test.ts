import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeProcess } from './support/bridge-process.js';
import { malformedInputs } from './support/malformed.js';
import { MOSQUITTO_MISSING } from '../src/testing.js';
import { Tally } from './support/tally.js';
import { startVenue, type TestVenue } from './support/venue.js';
import { Watcher, type Received } from './support/watcher.js';

if (MOSQUITTO_MISSING) console.warn(`skipped: ${MOSQUITTO_MISSING}`);

const PREFIX = 'test/cmd';
const MALFORMED = 400;
const tally = new Tally();

interface Result {
  id: string | null;
  ok: boolean;
  error?: string;
  code?: string;
  duplicate?: true;
}

describe.skipIf(MOSQUITTO_MISSING)('commands through a real Mosquitto', () => {
  let venue: TestVenue;
  let bridge: BridgeProcess;
  let desk: Watcher;

  beforeAll(async () => {
    venue = await startVenue();
    bridge = new BridgeProcess([...venue.bridgeArgs(PREFIX), '--follow-director', '--log-format', 'json']);
    desk = await Watcher.connect(venue.broker.url, [`${PREFIX}/result`, `${PREFIX}/bridge`, 'desk/replies/#']);
    await desk.waitFor((message) => message.topic === `${PREFIX}/bridge` && message.json === 'online', 10_000, 0, 'bridge online');
  });

  afterAll(async () => {
    await bridge?.stop();
    await desk?.close();
    await venue?.close();
    if (tally.rows.length > 0) console.log(`bridge command faults:\n${tally.table()}`);
  });

  /** Publishes a command as a desk would (MQTT 5), answers its result. */
  async function send(path: string, body: unknown, options: { responseTopic?: string; correlation?: string; expiry?: number; raw?: Buffer } = {}): Promise<Result> {
    const correlation = options.correlation ?? `c${Math.random()}`;
    const since = desk.messages.length;
    await desk.client.publishAsync(`${PREFIX}/cmd/${path}`, options.raw ?? JSON.stringify(body), {
      qos: 1,
      properties: {
        responseTopic: options.responseTopic ?? 'desk/replies/1',
        correlationData: Buffer.from(correlation),
        ...(options.expiry === undefined ? {} : { messageExpiryInterval: options.expiry }),
      },
    });
    const result = await desk.waitFor((message) => message.correlationData === correlation, 5000, since, `the result of ${path}`);
    return result.json as Result;
  }

  const plays = (since: number) => venue.session.cuesSince(since).filter((request) => request.path === '/api/session/transport/play').length;

  it('runs a repeated id once and answers every copy as a duplicate, never as a success', async () => {
    const row = tally.row('duplicate commands');
    const since = venue.session.requests.length;
    const id = `dup-${Date.now()}`;
    const body = { transport: 'main', id, sentAt: Date.now() };
    const results = [];
    for (let copy = 0; copy < 5; copy++) {
      row.inputs++;
      results.push(await send('transport/play', body));
    }
    expect(results[0]).toEqual({ id, ok: true });
    expect(results.slice(1)).toEqual(
      Array.from({ length: 4 }, () => ({ id, ok: false, duplicate: true, code: 'STAGELINK_BRIDGE_ERR_DUPLICATE', error: expect.stringMatching(/copy of command .* was not run/) as string })),
    );
    expect(plays(since)).toBe(1);
    row.ok += results.filter((result) => result.ok || result.duplicate).length;
  });

  it('runs the same id from two senders for each: ids are remembered per sender', async () => {
    const since = venue.session.requests.length;
    const other = await Watcher.connect(venue.broker.url, ['desk/replies/#']);
    try {
      const id = 'go-12';
      const body = { transport: 'main', id, sentAt: Date.now() };
      expect(await send('transport/play', body, { responseTopic: 'desk/replies/a' })).toEqual({ id, ok: true });
      // A second desk (its own client and response topic) with the same fixed cue.
      const correlation = 'second-desk';
      const before = other.messages.length;
      await other.client.publishAsync(`${PREFIX}/cmd/transport/play`, JSON.stringify({ ...body, sentAt: Date.now() }), { qos: 1, properties: { responseTopic: 'desk/replies/b', correlationData: Buffer.from(correlation) } });
      const answer = await other.waitFor((message) => message.correlationData === correlation, 5000, before, 'the second desk\'s result');
      expect(answer.json).toEqual({ id, ok: true });
      expect(plays(since)).toBe(2);
      // Each desk's own copy is still a duplicate.
      expect(await send('transport/play', body, { responseTopic: 'desk/replies/a' })).toMatchObject({ id, ok: false, duplicate: true });
      expect(plays(since)).toBe(2);
    } finally {
      await other.close();
    }
  });

  it('refuses a command older than --max-command-age, by sentAt or by message expiry, and one with no time at all', async () => {
    const row = tally.row('late and untimed commands');
    const since = venue.session.requests.length;
    const late = [
      await send('transport/play', { transport: 'main', id: 'late-1', sentAt: Date.now() - 5000 }),
      await send('transport/play', { transport: 'main', id: 'late-2', sentAt: Date.now() + 60_000 }),
      await send('transport/play', { transport: 'main', id: 'late-3' }, { expiry: 60 }),
      await send('transport/play', { transport: 'main', id: 'untimed' }),
    ];
    row.inputs += late.length;
    for (const result of late) expect(result).toMatchObject({ ok: false, code: expect.stringMatching(/^STAGELINK_BRIDGE_ERR_(TOO_OLD|UNTIMED)$/) as string });
    expect(late[0]?.error).toMatch(/sent \d+ ms ago/);
    row.clearErrors += late.length;
    expect(venue.session.cuesSince(since)).toEqual([]);
    const inTime = await send('transport/play', { transport: 'main', id: 'in-time' }, { expiry: 2 });
    row.inputs++;
    expect(inTime).toEqual({ id: 'in-time', ok: true });
    row.ok++;
  });

  it('answers on the MQTT 5 response topic with its correlation data, and on <prefix>/result with the id otherwise', async () => {
    const own = await send('transport/stop', { transport: 'main', id: 'mine', sentAt: Date.now() }, { responseTopic: 'desk/replies/7', correlation: 'abc' });
    expect(own).toEqual({ id: 'mine', ok: true });
    expect(desk.messages.findLast((message) => message.correlationData === 'abc')?.topic).toBe('desk/replies/7');
    // An MQTT 3.1.1 desk has no response topic: the id tells its result.
    const v3 = await Watcher.connect(venue.broker.url, [`${PREFIX}/result`], { protocolVersion: 4 });
    try {
      await v3.client.publishAsync(`${PREFIX}/cmd/transport/stop`, JSON.stringify({ transport: 'main', id: 'v3-cue', sentAt: Date.now() }), { qos: 1 });
      const result = await v3.waitFor((message) => (message.json as Result).id === 'v3-cue', 5000);
      expect(result.json).toEqual({ id: 'v3-cue', ok: true });
    } finally {
      await v3.close();
    }
    // A response topic the bridge must not publish on (its own state, a wildcard, a system topic) gets <prefix>/result.
    for (const responseTopic of [`${PREFIX}/bridge`, 'desk/#', '$SYS/x', `${PREFIX}/cmd/transport/play`]) {
      const correlation = `bad-${responseTopic}`;
      await send('transport/stop', { transport: 'main', sentAt: Date.now() }, { responseTopic, correlation });
      expect(desk.messages.findLast((message) => message.correlationData === correlation)?.topic).toBe(`${PREFIX}/result`);
    }
  });

  it('sends a failover only with confirm: true, and runs the confirmed one sent with the id the refused ones had', async () => {
    const row = tally.row('guarded failover');
    const since = venue.session.requests.length;
    // One fixed button, pressed without its confirmation and then corrected: what was refused unsent is not taken.
    const id = `failover-${Date.now()}`;
    for (const confirm of [undefined, false, 'true', 1, null]) {
      row.inputs++;
      const result = await send('failover/failovermachine', { machine: 'Actor 1', id, sentAt: Date.now(), ...(confirm === undefined ? {} : { confirm }) });
      expect(result).toMatchObject({ ok: false, code: 'STAGELINK_ERR_CONFIRMATION_REQUIRED' });
      row.clearErrors++;
    }
    expect(venue.session.cuesSince(since)).toEqual([]);
    row.inputs++;
    expect(await send('failover/failovermachine', { machine: 'Actor 1', id, confirm: true, sentAt: Date.now() })).toMatchObject({ id, ok: true });
    row.ok++;
    expect(venue.session.cuesSince(since).map((request) => request.path)).toEqual(['/api/session/failover/failovermachine']);
    row.inputs++;
    expect(await send('failover/restoremachine', { machine: 'Actor 1', confirm: true, sentAt: Date.now() })).toMatchObject({ ok: true });
    row.ok++;
  });

  it(`answers ${MALFORMED} generated malformed payloads on every command topic with an error each; nothing reaches the director`, async () => {
    const row = tally.row('malformed payloads');
    const inputs = malformedInputs(MALFORMED, 17, () => Date.now());
    const since = venue.session.requests.length;
    const first = desk.messages.length;
    for (const [index, input] of inputs.entries()) {
      row.inputs++;
      await desk.client.publishAsync(`${PREFIX}/cmd/${input.path}`, input.payload, {
        qos: 1,
        properties: { responseTopic: 'desk/replies/fuzz', correlationData: Buffer.from(`fuzz-${index}`) },
      });
    }
    const answered = (): Received[] => desk.messages.slice(first).filter((message) => message.correlationData?.startsWith('fuzz-'));
    await expect.poll(() => answered().length, { timeout: 15_000, interval: 100 }).toBeGreaterThanOrEqual(inputs.length);
    const byInput = new Map(answered().map((message) => [Number(message.correlationData?.slice(5)), message.json as Result]));
    for (const [index, input] of inputs.entries()) {
      const result = byInput.get(index);
      if (!result) {
        row.silentLosses++;
        continue;
      }
      if (result.ok) throw new Error(`input #${index} (${input.what} on ${input.path}) was run: ${input.payload.toString('utf8').slice(0, 200)}`);
      expect(result.code, `input #${index} (${input.what})`).toMatch(/^STAGELINK_(BRIDGE_)?ERR_/);
      expect(result.error, `input #${index} (${input.what})`).toEqual(expect.any(String));
      row.clearErrors++;
    }
    row.reachedDirector = venue.session.cuesSince(since).length;
    row.crashes = bridge.exit ? 1 : 0;
    expect(row).toMatchObject({ silentLosses: 0, reachedDirector: 0, crashes: 0, clearErrors: inputs.length });
    // And it still takes a good cue.
    expect(await send('transport/play', { transport: 'main', sentAt: Date.now(), id: 'after-fuzz' })).toEqual({ id: 'after-fuzz', ok: true });
  });
});
