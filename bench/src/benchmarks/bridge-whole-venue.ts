import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { startMosquitto, MOSQUITTO_MISSING } from '@stagelink/bridge/testing';
import { startSimulator } from '@stagelink/simulator';
import { connectAsync } from 'mqtt';
import { cpuMsOf, startBridgeProcess } from '../harness/bridge-process.js';
import { compareRounds } from '../harness/compare.js';
import { closeFakeSmc, startFakeSmc } from '../harness/fake-smc.js';
import { atMost, notRun, type Benchmark } from '../harness/report.js';
import { stablePort } from '../harness/stable-port.js';
import { stopProcess } from '../harness/stop-process.js';

const MACHINES = 40;
const TRANSPORTS = 20;
const ROUNDS = 6;
const ROUND_MS = 10_000;
/** Long enough for every clock's subscriptions and every machine's first hardware poll. */
const WARM_UP_MS = 20_000;
/** Prometheus's own default scrape interval is a minute; a venue dashboard scrapes faster. */
const SCRAPE_EVERY_MS = 5000;
/** A small venue computer carries the bridge beside other work: at most a tenth of one core. */
const CPU_LIMIT_MS_PER_S = 100;

/**
 * The whole venue on one bridge: 40 machines (their FPS, health and hardware), 20 transports' show clocks, with
 * every output on (MQTT, OSC to a receiver, Home Assistant discovery, Prometheus scraped, the show log recorded),
 * against the same bridge publishing to MQTT alone. Both run at once on the same session and broker, so the
 * machine's load weighs on both alike.
 */
export const bridgeWholeVenue: Benchmark = {
  id: 'bridge-whole-venue',
  name: 'bridge whole venue',
  subject: `one bridge, ${MACHINES} machines with their SMCs, ${TRANSPORTS} show clocks, every output on`,
  baseline: 'the same bridge with MQTT alone, on the same session at the same time',
  async run(log) {
    if (MOSQUITTO_MISSING) return { rows: [notRun('all', `<= ${CPU_LIMIT_MS_PER_S} ms/s`, MOSQUITTO_MISSING)], details: {} };
    const sim = await startSimulator({ scenario: 'venue', machines: MACHINES, transports: TRANSPORTS, dialect: 'r34', host: '127.0.0.1', port: 0, drivePort: 0, seed: 1 });
    const smcs = await Promise.all(sim.state.machines.hostnames().map(async (hostname) => ({ hostname, smc: await startFakeSmc() })));
    const broker = await startMosquitto();
    const osc = await oscReceiver();
    const dir = await mkdtemp(join(tmpdir(), 'stagelink-bench-venue-'));
    const metricsPort = await stablePort();
    const smcMap = smcs.map(({ hostname, smc }) => `${hostname}=${new URL(smc.url).host}`).join(',');
    const common = ['--server', sim.mediaServer.url, '--mqtt', broker.url, '--smc-map', smcMap, '--log-format', 'json'];
    const everything = startBridgeProcess([
      ...common,
      ...['--prefix', 'bench/all', '--osc-send', `127.0.0.1:${osc.port}`, '--ha-discovery', 'bench-ha', '--metrics', `127.0.0.1:${metricsPort}`, '--record', dir],
    ]);
    const mqttAlone = startBridgeProcess([...common, '--prefix', 'bench/mqtt']);
    const scrapes = { ok: 0, failed: 0 };
    const scraper = setInterval(() => void scrape(metricsPort, scrapes), SCRAPE_EVERY_MS);
    try {
      log(`${WARM_UP_MS / 1000} s warm-up, then ${ROUNDS} rounds of ${ROUND_MS / 1000} s`);
      await delay(WARM_UP_MS);
      const clocks = await retainedTopics(broker.url, 'bench/all/transports/+/clock');
      const hardware = await retainedTopics(broker.url, 'bench/all/machines/+/hardware');
      log(`${clocks} clocks and ${hardware} machines' hardware retained`);
      const all: number[] = [];
      const alone: number[] = [];
      const oscBefore = osc.messages;
      const startedAt = performance.now();
      for (let round = 0; round < ROUNDS; round++) {
        const before = { all: cpuMsOf(everything), alone: cpuMsOf(mqttAlone), at: performance.now() };
        await delay(ROUND_MS);
        const seconds = (performance.now() - before.at) / 1000;
        all.push((cpuMsOf(everything) - before.all) / seconds);
        alone.push((cpuMsOf(mqttAlone) - before.alone) / seconds);
        log(`round ${round + 1}: ${Math.round(all.at(-1) ?? 0)} against ${Math.round(alone.at(-1) ?? 0)} ms/s`);
      }
      const oscPerSecond = (osc.messages - oscBefore) / ((performance.now() - startedAt) / 1000);
      const cpu = compareRounds(all, alone);
      return {
        rows: [
          {
            case: `bridge CPU, ${MACHINES} machines and ${TRANSPORTS} clocks, every output`,
            subject: `${Math.round(cpu.subject)} ms/s`,
            baseline: `${Math.round(cpu.baseline)} ms/s`,
            ratioLabel: 'every output / MQTT alone',
            ratio: cpu.ratio,
            ratioRange: cpu.ratioRange,
            target: `<= ${CPU_LIMIT_MS_PER_S} ms/s (10 % of one core)`,
            verdict: atMost(cpu.subject, CPU_LIMIT_MS_PER_S),
            note: `${clocks} of ${TRANSPORTS} clocks and ${hardware} of ${MACHINES} machines' hardware retained; OSC ${Math.round(oscPerSecond)} messages/s; /metrics scraped ${scrapes.ok} times (${scrapes.failed} failed)`,
          },
        ],
        details: { machines: MACHINES, transports: TRANSPORTS, rounds: ROUNDS, roundMs: ROUND_MS, everyOutputCpuMsPerSecond: all, mqttAloneCpuMsPerSecond: alone, clocks, hardware, oscPerSecond, scrapes },
      };
    } finally {
      clearInterval(scraper);
      await Promise.all([stopProcess(everything), stopProcess(mqttAlone)]);
      osc.close();
      await broker.close();
      await Promise.all(smcs.map(({ smc }) => closeFakeSmc(smc)));
      await sim.close();
      await rm(dir, { recursive: true, force: true });
    }
  },
};

/** A UDP port that counts the OSC packets it gets. */
async function oscReceiver(): Promise<{ port: number; messages: number; close(): void }> {
  const socket = createSocket('udp4');
  const receiver = { port: 0, messages: 0, close: () => socket.close() };
  socket.on('message', () => (receiver.messages += 1));
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  receiver.port = socket.address().port;
  return receiver;
}

async function scrape(port: number, count: { ok: number; failed: number }): Promise<void> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    await response.text();
    count[response.ok ? 'ok' : 'failed'] += 1;
  } catch {
    count.failed += 1;
  }
}

/** How many retained topics match the filter now: a second's wait for the broker to hand them over. */
async function retainedTopics(url: string, filter: string): Promise<number> {
  const client = await connectAsync(url, { reconnectPeriod: 0 });
  const topics = new Set<string>();
  client.on('message', (topic, payload) => payload.length > 0 && topics.add(topic));
  await client.subscribeAsync(filter);
  await delay(1000);
  await client.endAsync();
  return topics.size;
}
