/**
 * Each machine's hardware on its retained topic, read from its management controller given by --smc-map, on a real
 * Mosquitto and the simulator's session: a fan that stops turns the topic's severity to error with the reason, and
 * back; a machine that leaves has its topic cleared.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { parseSmcMap, readShowLog, type ShowLogRecord } from '@stagelink/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/cli-args.js';
import { haBaseId, haSlug, type HaComponent } from '../src/ha-discovery.js';
import { ReportBuilder } from '../src/report/report-builder.js';
import type { Bridge } from '../src/index.js';
import { OptionError, resolveOptions } from '../src/options.js';
import { MOSQUITTO_MISSING } from '../src/testing.js';
import { startVenue, type TestVenue } from './support/venue.js';
import { sampleValue, scrape, scrapeUntil } from './support/metrics.js';
import { LIBLO_MISSING, OscDump, type DumpedMessage } from './support/osc.js';
import { Watcher, type Received } from './support/watcher.js';

if (MOSQUITTO_MISSING) console.warn(`skipped: ${MOSQUITTO_MISSING}`);

const PREFIX = 'test/hardware';

interface HardwarePayload {
  machine: string;
  status: string;
  severity: string;
  reasons: string[];
  fans: { sensor: string; rpm: number }[];
  temperatures: { sensor: string; celsius: number }[];
  stale?: boolean;
}

describe('--smc-map and --hardware-every', () => {
  const run = (...flags: string[]) => {
    const command = parseCliArgs(['--server', 'a', '--mqtt', 'mqtt://b', ...flags]);
    if (command.kind !== 'run') throw new Error('not a run');
    return resolveOptions(command.options);
  };

  it('reads HOSTNAME=address entries as the other front ends do, every 15 s by default', () => {
    const options = run('--smc-map', 'ACTOR01=10.0.1.6,ACTOR02=admin@10.0.1.7:8080');
    expect(options.smcs).toEqual(parseSmcMap('ACTOR01=10.0.1.6\nACTOR02=admin@10.0.1.7:8080'));
    expect(options.hardwareEveryMs).toBe(15_000);
    expect(run('--hardware-every', '2').hardwareEveryMs).toBe(2000);
  });

  it('refuses a period under a second, a period that is no number and an entry that is no HOSTNAME=address', () => {
    expect(() => run('--hardware-every', '0.5')).toThrow(new OptionError('--hardware-every must be a number from 1 to 3600 (got 0.5).'));
    expect(() => run('--hardware-every', 'often')).toThrow(new OptionError('--hardware-every must be a number (got "often").'));
    expect(() => run('--smc-map', 'ACTOR01')).toThrow(/^--smc-map: "ACTOR01" is not HOSTNAME=address of a management controller/);
  });
});

describe.skipIf(MOSQUITTO_MISSING)('hardware on a real Mosquitto', () => {
  let venue: TestVenue;
  let bridge: Bridge;
  let watcher: Watcher;
  let dump: OscDump | undefined;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stagelink-hardware-'));
    venue = await startVenue();
    dump = LIBLO_MISSING ? undefined : await OscDump.start();
    // What a venue types into --smc-map: on r34 each machine's SMC has its own address, else the machine serves it.
    const lines = venue.session.sim.machines().map(({ hostname, url, smcUrl }) => `${hostname}=${new URL(smcUrl ?? url).host}`);
    watcher = await Watcher.connect(venue.broker.url, [`${PREFIX}/#`, 'homeassistant/#']);
    bridge = await venue.startBridge(PREFIX, { smcs: parseSmcMap(lines.join(',')), hardwareEverySeconds: 1, metrics: '127.0.0.1:0', haDiscovery: true, record: dir, ...(dump ? { oscSend: [`127.0.0.1:${dump.port}`] } : {}) });
  });

  afterAll(async () => {
    await bridge?.close();
    await watcher?.close();
    await dump?.close();
    await venue?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** The hardware records of the show log written so far. */
  async function hardwareRecords(hostname: string): Promise<ShowLogRecord[]> {
    const all: ShowLogRecord[] = [];
    for await (const record of readShowLog(dir)) if (record.kind === 'hardware' && record.machine === hostname) all.push(record);
    return all;
  }

  const machineIn = (role: 'actor' | 'understudy'): string => venue.session.sim.machines().find((machine) => machine.role === role)?.hostname as string;
  const hardwareOf = (hostname: string, check: (payload: HardwarePayload) => boolean) => (message: Received) =>
    message.topic === `${PREFIX}/machines/${hostname}/hardware` && typeof message.json === 'object' && check(message.json as HardwarePayload);

  it("publishes each machine's hardware retained, and a stopped fan as an error with its reason, then ok again", async () => {
    const actor = machineIn('actor');
    for (const { hostname } of venue.session.sim.machines()) {
      await watcher.waitFor(hardwareOf(hostname, (payload) => payload.status === 'online'), 10_000, 0, `hardware of ${hostname}`);
    }
    const first = await watcher.waitFor(hardwareOf(actor, (payload) => payload.severity === 'ok'), 10_000, 0, `${actor} ok`);
    // Retained: a consumer that joins now gets it from the broker.
    const late = await Watcher.connect(venue.broker.url, [`${PREFIX}/machines/${actor}/hardware`]);
    try {
      expect((await late.waitFor(hardwareOf(actor, () => true), 2000, 0, 'the retained hardware')).retain).toBe(true);
    } finally {
      await late.close();
    }
    expect(first.json).toMatchObject({ machine: actor, status: 'online', power: 'on', reasons: [], faults: [] });
    expect((first.json as HardwarePayload).fans.map(({ sensor }) => sensor)).toEqual(['Fan 1', 'Fan 2']);
    expect(first.json).not.toHaveProperty('stale');

    let since = watcher.messages.length;
    await venue.session.control({ action: 'hardwareFault', hostname: actor, fault: 'fan', on: true });
    const failed = await watcher.waitFor(hardwareOf(actor, (payload) => payload.severity === 'error'), 10_000, since, `${actor}'s fan error`);
    expect((failed.json as HardwarePayload).reasons).toContain('Fan 2 has stopped (0 RPM)');

    since = watcher.messages.length;
    await venue.session.control({ action: 'hardwareFault', hostname: actor, fault: 'fan', on: false });
    const back = await watcher.waitFor(hardwareOf(actor, (payload) => payload.severity === 'ok'), 10_000, since, `${actor} ok again`);
    expect((back.json as HardwarePayload).reasons).toEqual([]);
  }, 60_000);

  it('serves each sensor, the severity and the power on /metrics, and a stopped fan as severity 2 at 0 RPM', async () => {
    const actor = machineIn('actor');
    const url = bridge.metricsUrl as string;
    const machine = { machine: actor };
    const read = await scrapeUntil(url, (samples) => sampleValue(samples, 'stagelink_hardware_severity', machine) === 0, 10_000, `${actor}'s hardware`);
    expect(sampleValue(read, 'stagelink_hardware_temperature_celsius', { machine: actor, sensor: 'CPU Temp' })).toBeGreaterThan(0);
    expect(sampleValue(read, 'stagelink_hardware_temperature_celsius', { machine: actor, sensor: 'Inlet Temp' })).toBeGreaterThan(0);
    expect(sampleValue(read, 'stagelink_hardware_fan_rpm', { machine: actor, sensor: 'Fan 2' })).toBeGreaterThan(0);
    expect(sampleValue(read, 'stagelink_hardware_power_on', machine)).toBe(1);

    await venue.session.control({ action: 'hardwareFault', hostname: actor, fault: 'fan', on: true });
    const failed = await scrapeUntil(url, (samples) => sampleValue(samples, 'stagelink_hardware_severity', machine) === 2, 10_000, `${actor}'s fan error`);
    expect(sampleValue(failed, 'stagelink_hardware_fan_rpm', { machine: actor, sensor: 'Fan 2' })).toBe(0);
    await venue.session.control({ action: 'hardwareFault', hostname: actor, fault: 'fan', on: false });
    await scrapeUntil(url, (samples) => sampleValue(samples, 'stagelink_hardware_severity', machine) === 0, 10_000, `${actor} ok again`);
  }, 60_000);

  it("gives each machine's Home Assistant device its temperatures, fans and a hardware problem sensor that a stopped fan turns on", async () => {
    const actor = machineIn('actor');
    const id = `${haBaseId(PREFIX)}-machine-${haSlug(actor)}`;
    const withHardware = (message: Received) =>
      message.topic === `homeassistant/device/${id}/config` && typeof message.json === 'object' && `${id}-fan-fan_2` in ((message.json as { cmps: object }).cmps ?? {});
    const config = (await watcher.waitFor(withHardware, 15_000, 0, `${actor}'s device with its hardware`)).json as { cmps: Record<string, HaComponent> };
    const topic = `${PREFIX}/machines/${actor}/hardware`;
    const cpu = config.cmps[`${id}-temperature-cpu_temp`];
    expect(cpu).toMatchObject({ p: 'sensor', name: 'CPU Temp', state_topic: topic, device_class: 'temperature', unit_of_measurement: '°C', state_class: 'measurement' });
    expect(config.cmps[`${id}-temperature-inlet_temp`]).toMatchObject({ p: 'sensor', device_class: 'temperature', unit_of_measurement: '°C' });
    const fan = config.cmps[`${id}-fan-fan_2`];
    expect(fan).toMatchObject({ p: 'sensor', name: 'Fan 2', state_topic: topic, unit_of_measurement: 'RPM' });
    const problem = config.cmps[`${id}-hardware`];
    expect(problem).toMatchObject({ p: 'binary_sensor', state_topic: topic, device_class: 'problem' });
    // An SMC that stops answering is a problem to show, not an entity to grey out: only the bridge's availability.
    expect(problem).not.toHaveProperty('availability_mode');

    /** The templates' one form each, evaluated as Home Assistant's Jinja would. */
    const render = (component: HaComponent | undefined, payload: HardwarePayload): string => {
      const template = String(component?.value_template);
      if (template === "{{ 'OFF' if value_json.severity == 'ok' else 'ON' }}") return payload.severity === 'ok' ? 'OFF' : 'ON';
      const form = /^\{% for each in value_json\.(temperatures|fans) if each\.sensor == (".*") %\}\{\{ each\.(celsius|rpm) \}\}\{% else %\}None\{% endfor %\}$/.exec(template);
      if (!form) throw new Error(`a template of another form: ${template}`);
      const list = payload[form[1] as 'temperatures' | 'fans'] as Record<string, unknown>[];
      const found = list.find((each) => each['sensor'] === JSON.parse(form[2] as string));
      return found ? String(found[form[3] as string]) : 'None';
    };
    const ok = (await watcher.waitFor(hardwareOf(actor, (payload) => payload.severity === 'ok'), 10_000, 0, `${actor} ok`)).json as HardwarePayload;
    expect(render(problem, ok)).toBe('OFF');
    expect(Number(render(cpu, ok))).toBeGreaterThan(0);
    expect(Number(render(fan, ok))).toBeGreaterThan(0);

    const since = watcher.messages.length;
    await venue.session.control({ action: 'hardwareFault', hostname: actor, fault: 'fan', on: true });
    try {
      const failed = (await watcher.waitFor(hardwareOf(actor, (payload) => payload.severity === 'error'), 10_000, since, `${actor}'s fan error`)).json as HardwarePayload;
      expect(render(problem, failed)).toBe('ON');
      expect(render(fan, failed)).toBe('0');
    } finally {
      await venue.session.control({ action: 'hardwareFault', hostname: actor, fault: 'fan', on: false });
    }
    await watcher.waitFor(hardwareOf(actor, (payload) => payload.severity === 'ok'), 10_000, since, `${actor} ok again`);
  }, 60_000);

  it.skipIf(LIBLO_MISSING)("sends each machine's hardware severity, reasons, hottest temperature and slowest fan as OSC, and a stopped fan as an error", async () => {
    const osc = dump as OscDump;
    const actor = machineIn('actor');
    const at = (suffix: string, check: (message: DumpedMessage) => boolean = () => true) => (message: DumpedMessage) => message.address === `/stagelink/hardware/machines/${actor}/hardware${suffix}` && check(message);
    const ok = await osc.waitFor(at('', (message) => message.values[0] === 'ok'), 10_000, 0, `${actor}'s hardware ok`);
    expect(ok.types).toBe('s');
    expect((await osc.waitFor(at('/stale'), 5000, 0, 'its stale mark')).types).toBe('i');
    expect((await osc.waitFor(at('/hottest'), 5000, 0, 'the hottest temperature')).types).toBe('f');
    expect((await osc.waitFor(at('/slowest_fan'), 5000, 0, 'the slowest fan')).types).toBe('i');

    const since = osc.messages.length;
    await venue.session.control({ action: 'hardwareFault', hostname: actor, fault: 'fan', on: true });
    try {
      await osc.waitFor(at('', (message) => message.values[0] === 'error'), 10_000, since, `${actor}'s hardware error`);
      await osc.waitFor(at('/reasons', (message) => String(message.values[0]).includes('Fan 2 has stopped (0 RPM)')), 5000, since, 'the reason');
      await osc.waitFor(at('/slowest_fan', (message) => message.values[0] === 0), 5000, since, 'the stopped fan');
    } finally {
      await venue.session.control({ action: 'hardwareFault', hostname: actor, fault: 'fan', on: false });
    }
    await osc.waitFor(at('', (message) => message.values[0] === 'ok'), 10_000, since, `${actor}'s hardware ok again`);
  }, 60_000);

  it('marks the hardware stale while the management controller does not answer', async () => {
    const actor = machineIn('actor');
    const since = watcher.messages.length;
    await venue.session.control({ action: 'smcSilent', hostname: actor, on: true });
    try {
      const silent = await watcher.waitFor(hardwareOf(actor, (payload) => payload.status === 'offline'), 20_000, since, `${actor} offline`);
      expect(silent.json).toMatchObject({ stale: true, reason: 'read failed', severity: 'error' });
      // Offline is 3, and the readings of an SMC that does not answer are not served as if read now.
      const offline = await scrapeUntil(bridge.metricsUrl as string, (samples) => sampleValue(samples, 'stagelink_hardware_severity', { machine: actor }) === 3, 10_000, `${actor} offline`);
      expect(sampleValue(offline, 'stagelink_hardware_fan_rpm', { machine: actor, sensor: 'Fan 1' })).toBeUndefined();
      expect(sampleValue(offline, 'stagelink_machine_stale', { machine: actor, value: 'hardware' })).toBe(1);
    } finally {
      await venue.session.control({ action: 'smcSilent', hostname: actor, on: false });
    }
    await watcher.waitFor(hardwareOf(actor, (payload) => payload.status === 'online' && payload.stale === undefined), 20_000, since, `${actor} online again`);
  }, 60_000);

  it('records a fan failure in the show log as hardware records, each change of severity and reasons once, not every reading, and the report shows it', async () => {
    const actor = machineIn('actor');
    const understudy = machineIn('understudy');
    let records: ShowLogRecord[] = [];
    for (let tries = 0; tries < 50; tries++) {
      records = await hardwareRecords(actor);
      if (records.some((record) => record.kind === 'hardware' && record.status === 'offline')) break;
      await delay(100);
    }
    const failure = records.findIndex((record) => record.kind === 'hardware' && record.severity === 'error' && (record.reasons ?? []).includes('Fan 2 has stopped (0 RPM)'));
    expect(failure, JSON.stringify(records)).toBeGreaterThan(0);
    expect(records[failure - 1]).toMatchObject({ kind: 'hardware', machine: actor, status: 'online', severity: 'ok' });
    expect(records[failure - 1]).not.toHaveProperty('reasons');
    expect(records[failure + 1]).toMatchObject({ kind: 'hardware', machine: actor, status: 'online', severity: 'ok' });
    // The understudy was read every second all along, its readings drifting, and never changed: one record.
    expect(await hardwareRecords(understudy)).toEqual([{ t: expect.any(String) as string, kind: 'hardware', machine: understudy, status: 'online', severity: 'ok' }]);

    // The report of the recorded log shows the fan failure in the actor's hardware band and as an incident.
    const builder = new ReportBuilder({});
    for await (const record of readShowLog(dir)) builder.add(record);
    const report = builder.finish();
    const band = report.machines.find((machine) => machine.name === actor)?.hardware ?? [];
    expect(band.some((span) => span.severity === 'error' && span.reasons === 'Fan 2 has stopped (0 RPM)' && span.end !== null)).toBe(true);
    expect(report.incidents).toContainEqual(expect.objectContaining({ machine: actor, state: 'error', detail: 'hardware: Fan 2 has stopped (0 RPM)' }));
  });

  it('records a machine running hot once while its temperature drifts, and once when it cools', async () => {
    const hot = venue.session.sim.machines().filter((machine) => machine.role === 'actor')[1]?.hostname as string;
    await watcher.waitFor(hardwareOf(hot, (payload) => payload.severity === 'ok'), 10_000, 0, `${hot} ok`);
    const since = watcher.messages.length;
    await venue.session.control({ action: 'hardwareFault', hostname: hot, fault: 'overheat', on: true });
    const reasonsSeen = new Set<string>();
    // Published as the reading moves: at least two temperatures over the line, each in its reason.
    await watcher.waitFor(
      hardwareOf(hot, (payload) => {
        if (payload.severity === 'error') reasonsSeen.add(payload.reasons.join('; '));
        return reasonsSeen.size >= 2;
      }),
      20_000,
      since,
      `${hot}'s temperature moving while hot`,
    );
    const back = watcher.messages.length;
    await venue.session.control({ action: 'hardwareFault', hostname: hot, fault: 'overheat', on: false });
    await watcher.waitFor(hardwareOf(hot, (payload) => payload.severity === 'ok'), 10_000, back, `${hot} cool again`);
    const severities = async () => (await hardwareRecords(hot)).map((record) => (record.kind === 'hardware' ? record.severity : ''));
    let written = await severities();
    for (let tries = 0; tries < 50 && !(written.length >= 3 && written.at(-1) === 'ok'); tries++) {
      await delay(100);
      written = await severities();
    }
    expect(written).toEqual(['ok', 'error', 'ok']);
  }, 60_000);

  it('clears the hardware topic and removes the hardware series of a machine that leaves the session', async () => {
    const understudy = machineIn('understudy');
    const topic = `${PREFIX}/machines/${understudy}/hardware`;
    await watcher.waitFor(hardwareOf(understudy, () => true), 10_000, 0, `hardware of ${understudy}`);
    const since = watcher.messages.length;
    await venue.session.control({ action: 'leaveSession', hostname: understudy });
    await watcher.waitFor((message) => message.topic === topic && message.json === '', 10_000, since, `${understudy}'s hardware cleared`);
    const hardwareSeries = (await scrape(bridge.metricsUrl as string)).filter(({ name, labels }) => name.startsWith('stagelink_hardware_') && labels['machine'] === understudy);
    expect(hardwareSeries).toEqual([]);
  }, 30_000);
});
