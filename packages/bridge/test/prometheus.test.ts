import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOSQUITTO_MISSING } from '../src/testing.js';
import { BridgeProcess } from './support/bridge-process.js';
import { freeTcpPort } from './support/metrics.js';
import { startVenue, type TestVenue } from './support/venue.js';

/** Debian's Prometheus 2.x: a real scraper and store, started here with its own config, never the system service. */
const PROMETHEUS = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v prometheus'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return existsSync('/usr/bin/prometheus') ? '/usr/bin/prometheus' : undefined;
  }
})();
const PROMETHEUS_MISSING = PROMETHEUS ? undefined : 'prometheus is not installed: `apt-get install -y --no-install-recommends prometheus` (.ci/run installs it) to run the Prometheus scrape test';
if (PROMETHEUS_MISSING) console.warn(`skipped: ${PROMETHEUS_MISSING}`);
if (MOSQUITTO_MISSING) console.warn(`skipped: ${MOSQUITTO_MISSING}`);

const PREFIX = 'test/prometheus';
/** Prometheus starts, scrapes every second and answers queries well within this on a busy machine. */
const SERIES_WITHIN_MS = 30_000;

interface QueryAnswer {
  status: string;
  data?: { resultType: string; result: { metric: Record<string, string>; value: [number, string] }[] };
}

describe.skipIf(PROMETHEUS_MISSING ?? MOSQUITTO_MISSING)('a real Prometheus scraping the bridge process', () => {
  let venue: TestVenue;
  let bridge: BridgeProcess;
  let prometheus: ChildProcess | undefined;
  let prometheusUrl: string;
  let folder: string;
  let printed = '';

  beforeAll(async () => {
    venue = await startVenue();
    const metricsPort = await freeTcpPort();
    // The built CLI, as a venue runs it: the bundle must carry prom-client.
    bridge = new BridgeProcess([...venue.bridgeArgs(PREFIX), '--follow-director', '--poll-interval', '500', '--metrics', String(metricsPort)]);
    await bridge.waitForLine(/metrics listening/, 20_000);
    folder = await mkdtemp(join(tmpdir(), 'stagelink-prometheus-'));
    const config = [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'scrape_configs:',
      '  - job_name: stagelink-bridge',
      '    static_configs:',
      `      - targets: ['127.0.0.1:${metricsPort}']`,
      '',
    ].join('\n');
    await writeFile(join(folder, 'prometheus.yml'), config);
    const port = await freeTcpPort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      PROMETHEUS as string,
      [`--config.file=${join(folder, 'prometheus.yml')}`, `--storage.tsdb.path=${join(folder, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    for (const stream of [prometheus.stdout, prometheus.stderr]) stream?.on('data', (chunk: Buffer) => (printed = (printed + chunk.toString('utf8')).slice(-20_000)));
  });

  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null && prometheus.signalCode === null) {
      const exited = once(prometheus, 'exit');
      prometheus.kill('SIGTERM');
      const force = setTimeout(() => prometheus?.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(force);
    }
    if (folder) await rm(folder, { recursive: true, force: true });
    await bridge?.stop();
    await venue?.close();
  });

  async function query(promql: string): Promise<QueryAnswer | undefined> {
    try {
      const response = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(promql)}`);
      return response.ok ? ((await response.json()) as QueryAnswer) : undefined;
    } catch {
      return undefined; // Not listening yet.
    }
  }

  it("returns every simulated machine's FPS series from its query API", async () => {
    const machines = venue.session.sim.machines().map((machine) => machine.hostname);
    const deadline = Date.now() + SERIES_WITHIN_MS;
    let answer: QueryAnswer | undefined;
    for (;;) {
      answer = await query('stagelink_fps{job="stagelink-bridge"}');
      const seen = answer?.data?.result.map((series) => series.metric.machine) ?? [];
      if (machines.every((machine) => seen.includes(machine))) break;
      if (prometheus?.exitCode !== null || Date.now() > deadline) {
        throw new Error(`Prometheus did not return the FPS of ${machines.join(', ')} within ${SERIES_WITHIN_MS} ms (exit ${String(prometheus?.exitCode)}); last answer ${JSON.stringify(answer)}\n${printed}\nbridge:\n${bridge.lines.slice(-20).join('\n')}`);
      }
      await delay(500);
    }
    for (const series of answer?.data?.result ?? []) {
      expect(series.metric).toMatchObject({ __name__: 'stagelink_fps', job: 'stagelink-bridge' });
      expect(Number(series.value[1]), series.metric.machine).toBeGreaterThan(1);
    }
    // The scrape itself is healthy, and the counters came along.
    expect((await query('up{job="stagelink-bridge"}'))?.data?.result[0]?.value[1]).toBe('1');
    expect((await query('stagelink_commands_total{via="mqtt",result="ok"}'))?.data?.result).toHaveLength(1);
  }, SERIES_WITHIN_MS + 15_000);
});
