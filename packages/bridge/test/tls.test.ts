import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOSQUITTO_MISSING } from '../src/testing.js';
import { BridgeProcess } from './support/bridge-process.js';
import { startVenue, type TestVenue } from './support/venue.js';
import { Watcher } from './support/watcher.js';

const OPENSSL_MISSING = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'openssl is not installed: it makes the test certificates';
  }
})();
const SKIP = MOSQUITTO_MISSING ?? OPENSSL_MISSING;
if (SKIP) console.warn(`skipped: ${SKIP}`);

const PREFIX = 'test/tls';

describe.skipIf(SKIP)('TLS to the broker', () => {
  let dir: string;
  let venue: TestVenue;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stagelink-bridge-tls-'));
    const file = (name: string) => join(dir, name);
    const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore', cwd: dir });
    // A venue CA and a broker certificate for 127.0.0.1, made for this test only. P-256 keys: an RSA key takes seconds
    // of CPU to make on a busy machine.
    const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    openssl('req', '-x509', ...key, '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '1', '-subj', '/CN=stagelink test CA');
    openssl('req', ...key, '-keyout', file('venue.broker.key'), '-out', file('venue.broker.csr'), '-subj', '/CN=127.0.0.1');
    await writeFile(file('san.ext'), 'subjectAltName=IP:127.0.0.1\n');
    openssl('x509', '-req', '-in', file('venue.broker.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial', '-out', file('venue.broker.pem'), '-days', '1', '-extfile', file('san.ext'));
    venue = await startVenue({ tls: { cafile: file('ca.pem'), certfile: file('venue.broker.pem'), keyfile: file('venue.broker.key') } });
  });

  afterAll(async () => {
    await venue?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('connects over TLS with the venue CA, and refuses a broker certificate it cannot check', async () => {
    const ca = join(dir, 'ca.pem');
    const bridge = new BridgeProcess([...venue.bridgeArgs(PREFIX), '--tls-ca', ca]);
    const consumer = await Watcher.connect(venue.broker.url, [`${PREFIX}/#`], { ca: readFileSync(ca) });
    try {
      await consumer.waitFor((message) => message.topic === `${PREFIX}/bridge` && message.json === 'online', 10_000);
      await consumer.waitFor((message) => message.topic === `${PREFIX}/transports/main/state`, 5000);
    } finally {
      await bridge.stop();
      await consumer.close();
    }
    const untrusting = new BridgeProcess(['--server', venue.session.sim.mediaServer.url, '--mqtt', venue.broker.url, '--prefix', `${PREFIX}-2`]);
    try {
      const line = await untrusting.waitForLine(/broker error/, 20_000);
      expect(line).toMatch(/certificate/i);
      await delay(300);
      expect(untrusting.lines.some((candidate) => /broker connected/.test(candidate))).toBe(false);
    } finally {
      await untrusting.stop();
    }
    // Two bridge processes start and connect one after the other: a busy machine takes its time over each.
  }, 60_000);
});
