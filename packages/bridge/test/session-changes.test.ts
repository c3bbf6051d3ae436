import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bridge } from '../src/index.js';
import { MOSQUITTO_MISSING } from '../src/testing.js';
import { startVenue, type TestVenue } from './support/venue.js';
import { Watcher, type Received } from './support/watcher.js';

if (MOSQUITTO_MISSING) console.warn(`skipped: ${MOSQUITTO_MISSING}`);

const PREFIX = 'test/changes';

describe.skipIf(MOSQUITTO_MISSING)('machines and transports that go while the bridge runs, on a real Mosquitto', () => {
  let venue: TestVenue;
  let bridge: Bridge;
  let watcher: Watcher;

  beforeAll(async () => {
    venue = await startVenue();
    watcher = await Watcher.connect(venue.broker.url, [`${PREFIX}/#`]);
    bridge = await venue.startBridge(PREFIX);
  });

  afterAll(async () => {
    await bridge?.close();
    await watcher?.close();
    await venue?.close();
  });

  const json = (message: Received) => message.json as { stale?: boolean; reason?: string };
  const fresh = (suffix: string) => (message: Received) => message.topic === `${PREFIX}/${suffix}` && json(message).stale !== true;
  const markedAs = (suffix: string, reason: string) => (message: Received) => message.topic === `${PREFIX}/${suffix}` && json(message).stale === true && json(message).reason === reason;

  it("marks its FPS, health and takeover stale as having left, publishes nothing live for it after, and keeps the others live", async () => {
    const understudy = venue.session.sim.machines().find((machine) => machine.role === 'understudy')?.hostname as string;
    const actor = venue.session.sim.machines().find((machine) => machine.role === 'actor')?.hostname as string;
    for (const part of ['fps', 'health', 'takeover']) await watcher.waitFor(fresh(`machines/${understudy}/${part}`), 10_000, 0, `${part} of ${understudy}`);

    const since = watcher.messages.length;
    await venue.session.control({ action: 'leaveSession', hostname: understudy });
    for (const part of ['fps', 'health', 'takeover']) {
      const mark = await watcher.waitFor(markedAs(`machines/${understudy}/${part}`, 'left the session'), 10_000, since, `${part} of ${understudy} marked as left`);
      expect(mark.json).toMatchObject({ stale: true, reason: 'left the session' });
    }
    const marked = watcher.messages.length;
    // The others stay live; a few more rounds (every 500 ms) bring nothing live for the machine that left.
    await delay(2000);
    await watcher.waitFor(fresh(`machines/${actor}/fps`), 10_000, marked, `FPS of ${actor}`);
    expect(watcher.messages.slice(marked).filter((message) => message.topic.startsWith(`${PREFIX}/machines/${understudy}/`))).toEqual([]);
  });

  it('marks a transport the project no longer has stale as not in the project, and publishes the one that took its place', async () => {
    const [before, after] = ['side screens', 'LED wall'];
    for (const part of ['state', 'clock']) await watcher.waitFor(fresh(`transports/${before}/${part}`), 10_000, 0, `${part} of ${before}`);

    const since = watcher.messages.length;
    await venue.session.control({ action: 'renameTransport', transport: before, name: after });
    for (const part of ['state', 'clock']) {
      await watcher.waitFor(markedAs(`transports/${before}/${part}`, 'not in the project'), 10_000, since, `${part} of ${before} marked as gone`);
      await watcher.waitFor(fresh(`transports/${after}/${part}`), 10_000, since, `${part} of ${after}`);
    }
    const marked = watcher.messages.length;
    await delay(2000);
    expect(watcher.messages.slice(marked).filter((message) => message.topic.startsWith(`${PREFIX}/transports/${before}/`))).toEqual([]);
  });
});
