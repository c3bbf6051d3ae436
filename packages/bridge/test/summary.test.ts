import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bridge } from '../src/index.js';
import type { SummaryPayload } from '../src/summary.js';
import { MOSQUITTO_MISSING } from '../src/testing.js';
import { startVenue, type TestVenue } from './support/venue.js';
import { Watcher, type Received } from './support/watcher.js';

if (MOSQUITTO_MISSING) console.warn(`skipped: ${MOSQUITTO_MISSING}`);

const PREFIX = 'test/summary';
const FPS_HZ = 4;

describe.skipIf(MOSQUITTO_MISSING)('the dashboard summary on a real Mosquitto', () => {
  let venue: TestVenue;
  let bridge: Bridge;
  let watcher: Watcher;
  let hostnames: string[];

  beforeAll(async () => {
    venue = await startVenue();
    hostnames = venue.session.sim.machines().map((machine) => machine.hostname);
    watcher = await Watcher.connect(venue.broker.url, [`${PREFIX}/#`]);
    bridge = await venue.startBridge(PREFIX, { fpsHz: FPS_HZ });
    await watcher.waitFor((message) => isSummary(message) && holdsEveryMachine(message), 10_000, 0, 'a summary of every machine');
  });

  afterAll(async () => {
    await bridge?.close();
    await watcher?.close();
    await venue?.close();
  });

  const on = (suffix: string) => (message: Received) => message.topic === `${PREFIX}/${suffix}`;
  const isSummary = on('summary');
  const machinesOf = (message: Received) => (message.json as SummaryPayload).machines;
  const holdsEveryMachine = (message: Received) => hostnames.every((hostname) => machinesOf(message)[hostname]?.fps && machinesOf(message)[hostname]?.health);
  const send = async (command: string, body: Record<string, unknown>) => {
    const id = `summary-${command}-${Date.now()}`;
    const since = watcher.messages.length;
    await watcher.client.publishAsync(`${PREFIX}/cmd/${command}`, JSON.stringify({ ...body, id, sentAt: Date.now() }), { qos: 1 });
    return (await watcher.waitFor((message) => on('result')(message) && (message.json as { id: string }).id === id, 5000, since, `the result of ${command}`)).json;
  };

  it('holds every machine, keyed by hostname as in the machine topics, with FPS, average, alert and health severity', () => {
    const summary = watcher.last(`${PREFIX}/summary`) as Received;
    expect(Object.keys(machinesOf(summary)).sort()).toEqual([...hostnames].sort());
    for (const hostname of hostnames) {
      expect(machinesOf(summary)[hostname]).toEqual({
        fps: { value: expect.any(Number) as number, average: expect.any(Number) as number, alert: expect.stringMatching(/^(ok|warning|error)$/) as string },
        health: { severity: expect.stringMatching(/^(ok|busy|warning|error|offline)$/) as string },
      });
    }
  });

  it("follows the machine topics: each summary shows every machine's FPS as its FPS topic last said it", async () => {
    const since = watcher.messages.length;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const window = watcher.messages.slice(since);
    const summaries = window.filter(isSummary);
    expect(summaries.length).toBeGreaterThan(2);
    // The bridge publishes a machine topic before the summary it changes, and the broker keeps one publisher's
    // order: whatever FPS message came before a summary is what that summary shows.
    for (const summary of summaries) {
      const before = watcher.messages.slice(0, watcher.messages.indexOf(summary));
      for (const hostname of hostnames) {
        const fps = before.findLast(on(`machines/${hostname}/fps`))?.json;
        expect(machinesOf(summary)[hostname]?.fps).toEqual(fps);
      }
    }
    const values = new Set(summaries.map((summary) => machinesOf(summary)[hostnames[1] as string]?.fps?.value));
    expect(values.size).toBeGreaterThan(1);
  });

  it(`is published at most ${FPS_HZ} times a second, and only when a machine topic changed`, async () => {
    const since = watcher.messages.length;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const window = watcher.messages.slice(since);
    const summaries = window.filter(isSummary);
    // Counted over the window rather than gap by gap: a loaded machine's broker can hand two over close together.
    expect(summaries.length).toBeLessThanOrEqual(FPS_HZ * 2.5 + 1);
    const texts = summaries.map((summary) => JSON.stringify(summary.json));
    expect(texts.filter((text, index) => index > 0 && text === texts[index - 1])).toEqual([]);
  });

  it('is retained: a show monitor that joins late gets every machine at once', async () => {
    const late = await Watcher.connect(venue.broker.url, [`${PREFIX}/summary`]);
    try {
      const told = await late.waitFor(isSummary, 3000, 0, 'the retained summary');
      expect(told.retain).toBe(true);
      expect(holdsEveryMachine(told)).toBe(true);
    } finally {
      await late.close();
    }
  });

  it("follows a machine's health: a failed-over actor is offline in the summary, and back after a restore", async () => {
    const since = watcher.messages.length;
    expect(await send('failover/failovermachine', { machine: 'Actor 1', confirm: true })).toMatchObject({ ok: true });
    try {
      const failed = await watcher.waitFor((message) => isSummary(message) && Object.values(machinesOf(message)).some((machine) => machine.health?.severity === 'offline'), 10_000, since, 'a summary with a machine offline');
      const actor = Object.entries(machinesOf(failed)).find(([, machine]) => machine.health?.severity === 'offline')?.[0] as string;
      expect((watcher.last(`${PREFIX}/machines/${actor}/health`)?.json as { severity: string }).severity).toBe('offline');
    } finally {
      expect(await send('failover/restoremachine', { machine: 'Actor 1', confirm: true })).toMatchObject({ ok: true });
    }
    const restored = watcher.messages.length;
    await watcher.waitFor((message) => isSummary(message) && Object.values(machinesOf(message)).every((machine) => machine.health?.severity !== 'offline'), 10_000, restored, 'a summary with no machine offline');
  });

  it("marks a machine's health stale in the summary while its reads fail, its FPS staying live, and clears it", async () => {
    const since = watcher.messages.length;
    // Reads answered later than their deadline fail; the live stream is not delayed.
    await venue.session.control({ action: 'latency', ms: 2500 });
    let marked: Received;
    try {
      marked = await watcher.waitFor((message) => isSummary(message) && hostnames.every((hostname) => machinesOf(message)[hostname]?.health?.stale === true), 10_000, since, 'a summary with every health marked stale');
    } finally {
      await venue.session.control({ action: 'latency', ms: 0 });
    }
    for (const hostname of hostnames) expect(machinesOf(marked)[hostname]?.health).toMatchObject({ severity: expect.any(String) as string, reason: 'read failed' });
    expect(Object.values(machinesOf(marked)).some((machine) => machine.fps?.stale !== true)).toBe(true);
    const cleared = watcher.messages.length;
    const fresh = await watcher.waitFor((message) => isSummary(message) && hostnames.every((hostname) => machinesOf(message)[hostname]?.health?.stale === undefined), 10_000, cleared, 'a summary with health fresh again');
    expect(machinesOf(fresh)[hostnames[0] as string]?.health).not.toHaveProperty('reason');
  });
});
