import { describe, expect, it } from 'vitest';
import { classifyFps, InvalidInputError, livePresets, RollingAverage, worstHealth, worstSeverity, type HealthEntry } from '../src/index.js';

describe('classifyFps', () => {
  it.each([
    [60, 60, 'ok'],
    [55.5, 60, 'ok'],
    [55, 60, 'warning'],
    [51, 60, 'warning'],
    [50, 60, 'error'],
    [0, 60, 'error'],
  ])('%d fps against %d is %s', (fps, target, alert) => {
    expect(classifyFps(fps, target)).toBe(alert);
  });
});

describe('worstSeverity', () => {
  it('treats ready as ok', () => {
    expect(worstSeverity(['ready', 'ok'])).toBe('ok');
  });
  it('picks the worst', () => {
    expect(worstSeverity(['ok', 'busy', 'error', 'warning'])).toBe('error');
    expect(worstSeverity(['error', 'offline'])).toBe('offline');
  });
  it('reads an unknown severity as a warning', () => {
    expect(worstSeverity(['ok', 'strange'])).toBe('warning');
  });
});

describe('worstHealth', () => {
  const entry = (hostname: string, ...severities: string[]): HealthEntry => ({
    machine: { uid: '1', name: hostname, hostname },
    runningAsMachine: { uid: '1', name: hostname, hostname },
    status: { averageFPS: 60, videoDroppedFrames: 0, videoMissedFrames: 0, states: severities.map((severity) => ({ name: 'x', detail: '', category: 'Output', severity })) },
  });
  it('answers the worst of the session or of one machine', () => {
    const entries = [entry('a', 'ok'), entry('b', 'warning', 'ready')];
    expect(worstHealth(entries)).toBe('warning');
    expect(worstHealth(entries, 'a')).toBe('ok');
    expect(worstHealth(entries, 'nobody')).toBe('offline');
  });

  it('finds a machine by its hostname in any case, as shipping directors spell it ACTOR01', () => {
    const entries = [entry('ACTOR01', 'ready'), entry('ACTOR02', 'error')];
    expect(worstHealth(entries, 'actor02')).toBe('error');
    expect(worstHealth(entries, 'Actor01')).toBe('ok');
  });
});

describe('RollingAverage', () => {
  it('averages the last N samples', () => {
    const average = new RollingAverage(3);
    expect([1, 2, 3, 10].map((v) => average.push(v))).toEqual([1, 1.5, 2, 5]);
    average.reset();
    expect(average.value).toBeUndefined();
  });
  it('defaults to the 10 samples the spec recommends', () => {
    expect(new RollingAverage().window).toBe(10);
  });
  it('answers means without floating-point noise, however long it runs', () => {
    const average = new RollingAverage(3);
    expect(average.push(0.1) && average.push(0.2)).toBe(0.15);
    expect(average.push(0.4)).toBe(0.233333333333);
    for (let index = 0; index < 100_000; index++) average.push(59.6 + (index % 7) * 0.01);
    expect([59.61, 59.62, 59.63].map((sample) => average.push(sample)).at(-1)).toBe(59.62);
  });
  it('refuses a sample that is not a finite number and keeps its mean', () => {
    const average = new RollingAverage(3);
    average.push(60);
    for (const bad of [Number.NaN, Infinity, '59' as unknown as number]) expect(() => average.push(bad)).toThrow(InvalidInputError);
    expect(average.value).toBe(60);
  });
});

describe('livePresets', () => {
  it('builds the spec expressions, remote machines with the :svc suffix unless the director lists another node', () => {
    const remote = livePresets.remoteFps('media-2');
    expect(remote).toMatchObject({
      object: 'subsystem:MonitoringManager.findRemoteMonitor("media-2:svc", "fps")',
      properties: ['object.seriesAverage("Actual", 1)'],
      updateFrequencyMs: 100,
      remoteMonitor: { hostname: 'media-2' },
    });
    expect(remote.remoteMonitor?.objectFor('MEDIA-2:d3')).toBe('subsystem:MonitoringManager.findRemoteMonitor("MEDIA-2:d3", "fps")');
    expect(livePresets.workloadInstances('7')).toMatchObject({ object: 'subsystem:RenderStreamSystem', otherObjects: ['subsystem:StreamRenderSystem'] });
    expect(livePresets.transportBrightness('Main Stage')).toMatchObject({ object: 'transportmanager:Main_Stage', properties: ['object.brightness'] });
    expect(livePresets.instanceHealth('7', 2).properties).toEqual(['object.getWorkloadInstance(7, 2).health()']);
    expect(livePresets.failoverTakeover('18446744073709551615').object).toBe('getByUID(18446744073709551615)');
  });
  it('refuses arguments that would change the expression', () => {
    expect(() => livePresets.remoteFps('a") + evil("')).toThrow(/hostname/);
    expect(() => livePresets.failoverTakeover('1) or (2')).toThrow(/uid/);
  });
});

describe('a transport\'s live object', () => {
  it('names it as shipping directors do, spaces as _ and unquoted, and as the documents do, quoted, for a server that knows only that', () => {
    expect(livePresets.transportVolume('Main Stage')).toEqual({
      object: 'transportmanager:Main_Stage',
      otherObjects: ['transportManager:"Main Stage"'],
      properties: ['object.volume'],
      updateFrequencyMs: 100,
    });
    expect(livePresets.transportBrightness('default')).toMatchObject({ object: 'transportmanager:default', otherObjects: ['transportManager:"default"'] });
    expect(livePresets.transportVolume('side screens').object).toBe('transportmanager:side_screens');
  });

  it('takes letters of any script, digits, "_" and "-", and turns each run of spaces into one _', () => {
    expect(livePresets.transportVolume('  Bühne  2 - LED_wall ').object).toBe('transportmanager:Bühne_2_-_LED_wall');
    expect(livePresets.transportVolume('舞台').object).toBe('transportmanager:舞台');
  });

  it.each(['Main "Stage"', 'main.volume', 'a:b', 'Stage (L)', 'a,b', 'back\\slash', 'tab\there', '#1', 'left/right', "it's"])('refuses %j, which would change the expression, saying what to do', (name) => {
    expect(() => livePresets.transportVolume(name)).toThrow(InvalidInputError);
    expect(() => livePresets.transportBrightness(name)).toThrow(/only letters, digits, spaces, "_" and "-". Rename the transport, or set its level with transport.setVolume/);
  });

  it('refuses an empty name', () => {
    expect(() => livePresets.transportVolume('  ')).toThrow(/is not a transport name/);
  });
});
