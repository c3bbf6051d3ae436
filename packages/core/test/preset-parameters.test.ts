import { describe, expect, it } from 'vitest';
import { fpsMachineOf, InvalidInputError, LIVE_PRESET_PARAMETERS, livePresetRequest, livePresets, machineFps } from '../src/index.js';

describe('live presets named by settings', () => {
  it('describe the parameters of every preset', () => {
    expect(Object.keys(LIVE_PRESET_PARAMETERS).sort()).toEqual(Object.keys(livePresets).sort());
    expect(LIVE_PRESET_PARAMETERS.instanceHealth.map(({ name }) => name)).toEqual(['workload', 'instance']);
  });

  it('build the same request as the preset itself, from the values settings hold', () => {
    const settings: Record<string, unknown> = { machine: ' actor-1 ', workload: '42', instance: '2', transport: 'main' };
    const read = (name: string): unknown => settings[name];
    expect(livePresetRequest('localFps', read)).toEqual(livePresets.localFps());
    expect(livePresetRequest('instanceHealth', read)).toEqual(livePresets.instanceHealth('42', 2));
    expect(livePresetRequest('transportVolume', read)).toEqual(livePresets.transportVolume('main'));
    expect(livePresetRequest('remoteFps', read).remoteMonitor?.hostname).toBe('actor-1');
  });

  it('say what to set when a parameter is blank or the name is no preset', () => {
    expect(() => livePresetRequest('remoteFps', () => '  ')).toThrow(/remoteFps preset needs the hostname of the machine to watch/);
    expect(() => livePresetRequest('failoverTakeover', () => undefined)).toThrow(InvalidInputError);
    expect(() => livePresetRequest('toString', () => 'x')).toThrow(/"toString" is not a live-update preset/);
  });
});

describe('fpsMachineOf', () => {
  it("reads the machine back from the FPS presets' objects, in both dialects' monitor names", () => {
    expect(fpsMachineOf(livePresets.localFps().object)).toEqual({ local: true });
    expect(fpsMachineOf(livePresets.remoteFps('ACTOR01').object)).toEqual({ hostname: 'ACTOR01' });
    expect(fpsMachineOf(livePresets.remoteFps('actor01').remoteMonitor?.objectFor('ACTOR01:d3') ?? '')).toEqual({ hostname: 'ACTOR01' });
    expect(fpsMachineOf(livePresets.cpu().object)).toBeUndefined();
  });
});

describe('machineFps', () => {
  it("watches the director's own FPS on its local monitor, whatever the case of its name", () => {
    expect(machineFps('director01', 'DIRECTOR01')).toEqual(livePresets.localFps());
    expect(machineFps(undefined, 'DIRECTOR01')).toEqual(livePresets.localFps());
    expect(machineFps(undefined, undefined)).toEqual(livePresets.localFps());
  });

  it("watches any other machine on the director's remote monitor, resolved in either dialect", () => {
    const request = machineFps('ACTOR01', 'DIRECTOR01');
    expect(fpsMachineOf(request.object)).toEqual({ hostname: 'ACTOR01' });
    expect(request.object).toContain('"ACTOR01:svc"');
    expect(fpsMachineOf(request.remoteMonitor?.objectFor('ACTOR01:d3') ?? '')).toEqual({ hostname: 'ACTOR01' });
    expect(fpsMachineOf(machineFps('ACTOR01', undefined).object)).toEqual({ hostname: 'ACTOR01' });
  });

  it('changes monitor when the director moves to or from the machine', () => {
    expect(fpsMachineOf(machineFps('UNDERSTUDY01', 'DIRECTOR01').object)).toEqual({ hostname: 'UNDERSTUDY01' });
    expect(fpsMachineOf(machineFps('UNDERSTUDY01', 'UNDERSTUDY01').object)).toEqual({ local: true });
    expect(fpsMachineOf(machineFps('DIRECTOR01', 'UNDERSTUDY01').object)).toEqual({ hostname: 'DIRECTOR01' });
  });

  it('refuses a hostname that would change the expression around it', () => {
    expect(() => machineFps('ACTOR01") + x("', 'DIRECTOR01')).toThrow(InvalidInputError);
  });
});
