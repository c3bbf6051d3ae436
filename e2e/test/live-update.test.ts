import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { livePresets, MediaServer, type LiveUpdateError } from '@stagelink/core';
import { watchLive } from './support/live-watch.js';
import { control, eventually, startTestSimulator } from './support/simulator.js';

type TestSimulator = Awaited<ReturnType<typeof startTestSimulator>>;

let sim: TestSimulator;
let ms: MediaServer;

beforeEach(async () => {
  sim = await startTestSimulator();
  ms = new MediaServer({
    host: sim.mediaServer.url,
    live: { connectTimeoutMs: 300, heartbeatMs: 200, reconnectBaseMs: 50, reconnectCapMs: 400 },
  });
});

afterEach(async () => {
  await ms.close();
  await sim.close();
});

const watch = (request = livePresets.localFps()) => watchLive(ms, request);

const liveStats = async () => (await sim.control({ action: 'status' })).live;

describe('live update', () => {
  it('serves 50 consumers of one value over one socket and one server subscription', async () => {
    const consumers = Array.from({ length: 50 }, () => watch());
    // A value of its own keeps the socket open, so the FPS unsubscribe is seen and not just the socket closing.
    const cpu = watch(livePresets.cpu());
    await eventually(() => [...consumers, cpu].every((c) => c.values.length > 0), 'every consumer has a value');
    // One subscribe request per value reached the server: the 50 share theirs on the client.
    expect(await liveStats()).toMatchObject({ sockets: 1, subscriptions: 2, references: 2 });

    for (const c of consumers.slice(0, 49)) c.subscription.close();
    const last = consumers[49];
    const seen = last?.values.length ?? 0;
    await eventually(() => (last?.values.length ?? 0) > seen, 'the last consumer still gets values');
    expect(await liveStats()).toMatchObject({ sockets: 1, subscriptions: 2, references: 2 });

    last?.subscription.close();
    await eventually(async () => (await liveStats()).subscriptions === 1, 'the FPS server subscription is gone');
    expect(await liveStats()).toMatchObject({ sockets: 1, references: 1 });

    cpu.subscription.close();
    await eventually(async () => (await liveStats()).sockets === 0, 'the socket is closed with the last subscription');
  });

  it('feeds two consumers of one value each at its own interval from one server subscription', async () => {
    const fast = watch({ ...livePresets.localFps(), updateFrequencyMs: 100 });
    const slowTimes: number[] = [];
    ms.live.subscribe({ ...livePresets.localFps(), updateFrequencyMs: 500 }, () => slowTimes.push(performance.now()));
    await eventually(() => slowTimes.length >= 4, 'four values for the slow consumer');
    expect(await liveStats()).toMatchObject({ subscriptions: 1, references: 1 });
    // The slow consumer is thinned to its interval (10 % slack); the fast one gets several values in each gap.
    const gaps = slowTimes.slice(1).map((time, i) => time - (slowTimes[i] ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(440);
    expect(fast.values.length).toBeGreaterThan(slowTimes.length * 2);
  });

  it('unsubscribes a value its last consumer left while the socket serves others', async () => {
    const fps = [watch(), watch()];
    const cpu = watch(livePresets.cpu());
    await eventually(() => [...fps, cpu].every((c) => c.values.length > 0), 'every consumer has a value');
    expect(await liveStats()).toMatchObject({ sockets: 1, subscriptions: 2, references: 2 });
    for (const c of fps) c.subscription.close();
    await eventually(async () => (await liveStats()).subscriptions === 1, 'the FPS subscription is released');
    expect(await liveStats()).toMatchObject({ sockets: 1, references: 1 });
    const seen = cpu.values.length;
    await eventually(() => cpu.values.length > seen, 'the CPU consumer still gets values');
  });

  it('tells a consumer joining an open socket that it is online at once', async () => {
    const first = watch();
    await eventually(() => first.values.length > 0, 'a first value');
    expect(first.statuses).toEqual(['connecting', 'online']);
    const second = watch(livePresets.cpu());
    await eventually(() => second.statuses.length > 0, 'a status for the second consumer');
    expect(second.statuses).toEqual(['online']);
  });

  it('comes back by itself after the server drops every socket, saying offline then online', async () => {
    const fps = watch();
    await eventually(() => fps.values.length > 0, 'a first value');
    await sim.control({ action: 'dropSockets' });
    await eventually(() => fps.statuses.includes('offline'), 'consumers are told offline');
    const before = fps.values.length;
    await eventually(() => fps.values.length > before && ms.live.status === 'online', 'values flow again');
    expect(fps.statuses.slice(fps.statuses.indexOf('offline'))).toEqual(['offline', 'online']);
    expect(await liveStats()).toMatchObject({ sockets: 1, subscriptions: 1 });
  });

  it('times out a stalled upgrade and retries until the server answers', async () => {
    await sim.control({ action: 'stallUpgrades', on: true });
    const fps = watch();
    await eventually(async () => (await liveStats()).upgradeAttempts >= 2, 'a second attempt after the connect timeout');
    expect(fps.values).toHaveLength(0);
    expect(fps.subscription.status).not.toBe('online');
    await sim.control({ action: 'stallUpgrades', on: false });
    await eventually(() => fps.values.length > 0, 'values once the server answers');
  });

  it('keeps retrying while upgrades are refused', async () => {
    await sim.control({ action: 'refuseUpgrades', on: true });
    const fps = watch();
    await eventually(async () => (await liveStats()).upgradeAttempts >= 3, 'several attempts');
    await sim.control({ action: 'refuseUpgrades', on: false });
    await eventually(() => fps.values.length > 0 && fps.subscription.status === 'online', 'values once upgrades are accepted');
  });

  it('reports a malformed frame and keeps the socket', async () => {
    const problems: LiveUpdateError[] = [];
    ms.live.on('problem', (problem) => problems.push(problem));
    const fps = watch();
    await eventually(() => fps.values.length > 0, 'a first value');
    await sim.control({ action: 'malformedFrame' });
    await eventually(() => problems.length > 0, 'the bad frame is reported');
    expect(problems[0]?.message).toMatch(/not JSON/);
    const before = fps.values.length;
    await eventually(() => fps.values.length > before, 'values keep flowing');
    expect(fps.statuses).not.toContain('offline');
  });

  it('cuts a hung server by heartbeat and recovers when it resumes', async () => {
    const fps = watch();
    await eventually(() => fps.values.length > 0, 'a first value');
    await sim.control({ action: 'pause', on: true });
    // A reconnect may follow within milliseconds, so look for the offline report rather than the current status.
    await eventually(() => fps.statuses.includes('offline'), 'the dead socket is noticed');
    await sim.control({ action: 'pause', on: false });
    const before = fps.values.length;
    await eventually(() => fps.values.length > before && fps.subscription.status === 'online', 'values after resume');
  });

  it('gives a subscription to an unknown object a clear error', async () => {
    const ghost = watch({ object: 'subsystem:MonitoringManager.findLocalMonitor("nope")', properties: ['object.seriesAverage("Actual", 1)'] });
    await eventually(() => ghost.errors.length > 0, 'an error');
    expect(ghost.errors[0]?.message).toMatch(/Unable to find object/);
  });

  it('gives a property that cannot be evaluated as an error, not a value', async () => {
    const bad = watch({ object: 'subsystem:MonitoringManager.findLocalMonitor("fps")', properties: ['object.seriesAverage("Nope", 1)'] });
    await eventually(() => bad.errors.length > 0, 'an error');
    expect(bad.values).toHaveLength(0);
  });

  it('answers every preset with values from the simulator', async () => {
    const session = await ms.status.session();
    const actor = session.actors[0];
    if (!actor) throw new Error('the demo session has actors');
    const presets = {
      localFps: livePresets.localFps(),
      remoteFps: livePresets.remoteFps(actor.hostname),
      cpu: livePresets.cpu(),
      gpuMemory: livePresets.gpuMemory(),
      processMemory: livePresets.processMemory(),
      gpuProfiler: livePresets.gpuProfiler(),
      failoverTakeover: livePresets.failoverTakeover(actor.uid),
      workloadReceiveStatuses: livePresets.workloadReceiveStatuses(1),
      workloadInstances: livePresets.workloadInstances(1),
      instanceHealth: livePresets.instanceHealth(1, 0),
    };
    const watched = Object.entries(presets).map(([name, request]) => ({ name, ...watch(request) }));
    await eventually(() => watched.every((w) => w.values.length > 0), 'a value for every preset');
    for (const w of watched) expect(w.errors, w.name).toEqual([]);
    const first = (name: string) => watched.find((w) => w.name === name)?.values[0]?.value;
    expect(first('localFps')).toBeGreaterThan(40);
    expect(first('localFps')).toBeLessThan(61);
    expect(first('failoverTakeover')).toBe(false);
    expect(first('instanceHealth')).toMatch(/^(ok|warning)$/);
    expect(Array.isArray(first('workloadInstances'))).toBe(true);
  });

  it('shows a failover takeover as it happens', async () => {
    const session = await ms.status.session();
    const actor = session.actors[0];
    const understudy = session.understudies[0];
    if (!actor || !understudy) throw new Error('the demo session has an actor and an understudy');
    const takeover = watch(livePresets.failoverTakeover(understudy.uid));
    await eventually(() => takeover.values.length > 0, 'a first value');
    expect(takeover.values[0]?.value).toBe(false);
    await ms.failover.failoverMachine({ uid: actor.uid });
    await eventually(() => takeover.values.some((v) => v.value === true), 'the understudy reports the takeover');
  });

  it('lets the process exit by itself after ms.close()', async () => {
    const script = `
      import { MediaServer, livePresets } from '@stagelink/core';
      const ms = new MediaServer({ host: ${JSON.stringify(sim.mediaServer.url)} });
      await ms.status.health();
      await new Promise((resolve) => ms.live.subscribe(livePresets.localFps(), resolve));
      await ms.close();
      console.log('closed');
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: import.meta.dirname, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    // Starting Node and loading core can take long on a busy machine: the bound that matters runs from close().
    let killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes('closed')) return;
      clearTimeout(killer);
      killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    });
    const exitCode = await new Promise<number | null>((resolve) => {
      child.on('exit', (code) => {
        clearTimeout(killer);
        resolve(code);
      });
    });
    expect(output.trim()).toBe('closed');
    expect(exitCode).toBe(0);
  });
});

describe('control', () => {
  it('refuses an unknown fault with a clear message', async () => {
    const local = await startTestSimulator();
    await expect(control(local.mediaServer.url, { action: 'explode' })).rejects.toThrow(/400/);
    await local.close();
  });
});

