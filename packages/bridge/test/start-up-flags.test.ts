/**
 * The built bridge started with a flag that cannot work, as systemd would start it, on a real broker and session:
 * it refuses at start-up with the flag and its value named and exit code 2, and publishes nothing, rather than
 * starting and failing on the first call that needs the machine.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOSQUITTO_MISSING } from '../src/testing.js';
import { BridgeProcess } from './support/bridge-process.js';
import { startVenue, type TestVenue } from './support/venue.js';
import { Watcher } from './support/watcher.js';

if (MOSQUITTO_MISSING) console.warn(`skipped: ${MOSQUITTO_MISSING}`);

const PREFIX = 'test/flags';

describe.skipIf(MOSQUITTO_MISSING)('a bridge started with a machine address that is none', () => {
  let venue: TestVenue;
  let watcher: Watcher;

  beforeAll(async () => {
    venue = await startVenue();
    watcher = await Watcher.connect(venue.broker.url, [`${PREFIX}/#`]);
  });

  afterAll(async () => {
    await watcher?.close();
    await venue?.close();
  });

  /** The venue's command line, following the director, with `entry` typed at the end of its `--hosts`. */
  const argsWithHostsEntry = (entry: string): string[] => {
    const args = [...venue.bridgeArgs(PREFIX), '--follow-director'];
    const at = args.indexOf('--hosts') + 1;
    args[at] = `${args[at]},${entry}`;
    return args;
  };

  it('exits with code 2 at start-up, naming the --hosts entry and its value, and publishes nothing', async () => {
    const bridge = new BridgeProcess(argsWithHostsEntry('ACTOR01=10.0.0.256'));
    try {
      expect(await bridge.exited(10_000)).toEqual({ code: 2, signal: null });
    } finally {
      await bridge.stop('SIGKILL');
    }
    expect(bridge.lines[0]).toBe('stagelink-bridge: --hosts: The address given for ACTOR01 in hosts ("10.0.0.256") is not an address or address:port, e.g. ACTOR01=10.0.0.6 or ACTOR01=10.0.0.6:8080.');
    // The usage follows, as for every flag the bridge refuses.
    expect(bridge.lines).toContainEqual(expect.stringMatching(/^\s+--hosts NAME=ADDR,\.\.\./));
    // Not even the bridge's own online/offline topic: it never reached the broker.
    await delay(200);
    expect(watcher.messages).toEqual([]);
  });
});
