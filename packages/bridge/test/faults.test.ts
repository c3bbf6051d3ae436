import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { connectAsync } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeProcess } from './support/bridge-process.js';
import { MOSQUITTO_MISSING } from '../src/testing.js';
import { Tally } from './support/tally.js';
import { startVenue, type TestVenue } from './support/venue.js';
import { Watcher, type Received } from './support/watcher.js';

if (MOSQUITTO_MISSING) console.warn(`skipped: ${MOSQUITTO_MISSING}`);

const PREFIX = 'stagelink/show';
const KEEPALIVE_S = 2;
const RESTARTS = 3;
const tally = new Tally();

afterAll(() => {
  if (tally.rows.length > 0) console.log(`bridge fault cases:\n${tally.table()}`);
});

describe.skipIf(MOSQUITTO_MISSING)('faults: the broker restarts, the bridge crashes or hangs', () => {
  let venue: TestVenue;
  let bridge: BridgeProcess;
  let consumer: Watcher;
  let expected: string[];

  const bridgeArgs = (): string[] => [...venue.bridgeArgs(PREFIX), '--follow-director', '--keepalive', String(KEEPALIVE_S), '--poll-interval', '500'];

  beforeAll(async () => {
    venue = await startVenue();
    expected = [
      'bridge',
      'director',
      'session/health',
      'transports/main/state',
      ...venue.session.sim.machines().flatMap(({ hostname }) => ['health', 'fps', 'takeover'].map((kind) => `machines/${hostname}/${kind}`)),
    ].map((suffix) => `${PREFIX}/${suffix}`);
    bridge = new BridgeProcess(bridgeArgs());
    consumer = await Watcher.connect(venue.broker.url, [`${PREFIX}/#`]);
    await seenAll(consumer, 0);
  });

  afterAll(async () => {
    await bridge?.stop();
    await consumer?.close();
    await venue?.close();
  });

  /** Every state topic arrives after `since`, the bridge's `online` among them. */
  async function seenAll(watcher: Watcher, since: number, timeoutMs = 10_000): Promise<void> {
    for (const topic of expected) {
      const match = (message: Received) => message.topic === topic && (topic !== `${PREFIX}/bridge` || message.json === 'online');
      await watcher.waitFor(match, timeoutMs, since, topic);
    }
  }

  it(`republishes every retained topic after the broker restarts (${RESTARTS} restarts, no persistence)`, async () => {
    const row = tally.row('broker restart');
    for (let restart = 0; restart < RESTARTS; restart++) {
      row.inputs++;
      await venue.broker.stop();
      await delay(500 + restart * 500);
      const since = consumer.messages.length;
      await venue.broker.start();
      try {
        await seenAll(consumer, since, 15_000);
        row.ok++;
      } catch (error) {
        row.silentLosses++;
        throw error;
      } finally {
        row.crashes += bridge.exit ? 1 : 0;
      }
    }
    expect(bridge.lines.some((line) => /broker reconnected/.test(line))).toBe(true);
  });

  it("is marked offline by its Last Will within 1.5 keep-alives (plus Mosquitto's 5 s check) when it hangs, and online again when it resumes", () =>
    tally.countCase('bridge hangs (SIGSTOP)', async () => {
      const since = consumer.messages.length;
      const stoppedAt = Date.now();
      let hangToWillMs = 0;
      bridge.signal('SIGSTOP');
      try {
        const offline = await consumer.waitFor((message) => message.topic === `${PREFIX}/bridge` && message.json === 'offline', KEEPALIVE_S * 1500 + 8000, since, 'the Last Will');
        // Mosquitto drops a client silent for 1.5 keep-alives; 2.0 looks for such clients every 5 s.
        expect(offline.at - stoppedAt).toBeLessThanOrEqual(KEEPALIVE_S * 1500 + 6500);
        hangToWillMs = offline.at - stoppedAt;
      } finally {
        bridge.signal('SIGCONT');
      }
      console.log(`Last Will ${hangToWillMs} ms after the bridge hung (keep-alive ${KEEPALIVE_S} s)`);
      const resumed = consumer.messages.length;
      await consumer.waitFor((message) => message.topic === `${PREFIX}/bridge` && message.json === 'online', 10_000, resumed, 'online again');
    }));

  it('is marked offline at once when killed (SIGKILL); a new bridge publishes everything again and never runs a retained cue', () =>
    tally.countCase('bridge killed (SIGKILL)', async () => {
      // A retained command is an accident waiting: it must not fire when a bridge subscribes.
      await consumer.client.publishAsync(`${PREFIX}/cmd/transport/stop`, JSON.stringify({ transport: 'main', sentAt: Date.now() + 1000 }), { qos: 1, retain: true });
      await delay(300);
      const since = consumer.messages.length;
      await bridge.stop('SIGKILL');
      await consumer.waitFor((message) => message.topic === `${PREFIX}/bridge` && message.json === 'offline', 2000, since, 'the Last Will');
      const requestsBefore = venue.session.requests.length;
      const restarted = consumer.messages.length;
      bridge = new BridgeProcess(bridgeArgs());
      await seenAll(consumer, restarted);
      await delay(500);
      expect(venue.session.cuesSince(requestsBefore)).toEqual([]);
      await consumer.client.publishAsync(`${PREFIX}/cmd/transport/stop`, '', { qos: 1, retain: true });
    }));
});

describe.skipIf(MOSQUITTO_MISSING)('broker accounts and the README ACL', () => {
  const accounts = [
    { username: 'stagelink-bridge', password: 'bridge-secret-7f3a' },
    { username: 'desk', password: 'desk-secret-91c2' },
    { username: 'viewer', password: 'viewer-secret-02dd' },
  ];
  const acl = [
    'user stagelink-bridge',
    'topic readwrite stagelink/#',
    '',
    'user desk',
    'topic write stagelink/+/cmd/#',
    '',
    'pattern read stagelink/#',
    '',
  ].join('\n');
  let venue: TestVenue;
  let dir: string;

  beforeAll(async () => {
    venue = await startVenue({ accounts, acl });
    dir = await mkdtemp(join(tmpdir(), 'stagelink-bridge-secrets-'));
  });

  afterAll(async () => {
    await venue?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('connects with a password file; only control accounts can cue; the password never reaches a log line', async () => {
    const row = tally.row('broker accounts');
    const passwordFile = join(dir, 'password');
    await writeFile(passwordFile, `${accounts[0]?.password}\n`, { mode: 0o600 });
    const args = [...venue.bridgeArgs(PREFIX), '--username', 'stagelink-bridge', '--password-file', passwordFile, '--log-format', 'json'];
    const good = new BridgeProcess(args);
    const viewer = await Watcher.connect(venue.broker.url, [`${PREFIX}/#`], { username: 'viewer', password: 'viewer-secret-02dd' });
    const desk = await Watcher.connect(venue.broker.url, [`${PREFIX}/result/desk`], { username: 'desk', password: 'desk-secret-91c2' });
    try {
      await viewer.waitFor((message) => message.topic === `${PREFIX}/bridge` && message.json === 'online', 10_000, 0, 'bridge online');
      await viewer.waitFor((message) => message.topic === `${PREFIX}/transports/main/state`, 5000);

      row.inputs++;
      const before = venue.session.requests.length;
      await desk.client.publishAsync(`${PREFIX}/cmd/transport/play`, JSON.stringify({ transport: 'main', sentAt: Date.now(), id: 'desk-1' }), {
        qos: 1,
        properties: { responseTopic: `${PREFIX}/result/desk`, correlationData: Buffer.from('desk-1') },
      });
      expect((await desk.waitFor((message) => message.correlationData === 'desk-1', 5000)).json).toEqual({ id: 'desk-1', ok: true });
      row.ok++;

      row.inputs++;
      const afterDesk = venue.session.requests.length;
      await viewer.client.publishAsync(`${PREFIX}/cmd/transport/stop`, JSON.stringify({ transport: 'main', sentAt: Date.now(), id: 'viewer-1' }), { qos: 1 }).catch(() => undefined);
      await delay(700);
      expect(venue.session.cuesSince(afterDesk)).toEqual([]);
      expect(viewer.messages.some((message) => (message.json as { id?: string }).id === 'viewer-1')).toBe(false);
      row.clearErrors++;
      expect(venue.session.cuesSince(before).length).toBe(1);

      row.inputs++;
      await expect(connectAsync(venue.broker.url, { protocolVersion: 5, reconnectPeriod: 0, connectTimeout: 2000 })).rejects.toThrow(/authori|Bad User Name|Not authorized|Connection refused/i);
      row.clearErrors++;

      row.inputs++;
      const wrongFile = join(dir, 'wrong');
      await writeFile(wrongFile, 'not-the-password-55e1\n');
      const wrong = new BridgeProcess([...args.slice(0, -4), '--password-file', wrongFile, '--log-format', 'json']);
      try {
        await wrong.waitForLine(/broker error/i, 20_000);
        await delay(1000);
        expect(wrong.exit).toBeUndefined();
        expect(wrong.lines.join('\n')).not.toContain('not-the-password-55e1');
        row.clearErrors++;
      } finally {
        await wrong.stop();
      }
    } finally {
      await good.stop();
      await viewer.close();
      await desk.close();
    }
    for (const { password } of accounts) expect(good.lines.join('\n')).not.toContain(password);
  }, 60_000);
});
