import { describe, expect, it } from 'vitest';
import { asSettings, chooseHost, hostMapSetting, numberSetting, textSetting } from '../../src/settings.js';

describe('settings', () => {
  it('reads the key host before the global one', () => {
    expect(chooseHost('10.0.0.9', { host: '10.0.0.5' })).toEqual({ kind: 'host', host: '10.0.0.9' });
    expect(chooseHost('  ', { host: '10.0.0.5' })).toEqual({ kind: 'host', host: '10.0.0.5' });
    expect(chooseHost(undefined, {})).toEqual({ kind: 'unset' });
    expect(chooseHost(undefined, undefined)).toEqual({ kind: 'unknown' });
    // A number is handed on as it is, for core to refuse, never read as the address "5" (0.0.0.5).
    expect(chooseHost(undefined, { host: 5 } as never)).toEqual({ kind: 'host', host: 5 });
    expect(chooseHost(null, { host: null } as never)).toEqual({ kind: 'unset' });
  });

  it('hands the global hosts map on with the key host and with the global one', () => {
    const global = { host: '10.0.0.5', hosts: 'DIRECTOR01=10.0.0.7' };
    expect(chooseHost('10.0.0.9', global)).toEqual({ kind: 'host', host: '10.0.0.9', hosts: 'DIRECTOR01=10.0.0.7' });
    expect(chooseHost(undefined, global)).toEqual({ kind: 'host', host: '10.0.0.5', hosts: 'DIRECTOR01=10.0.0.7' });
    expect(chooseHost(undefined, { hosts: 'DIRECTOR01=10.0.0.7' })).toEqual({ kind: 'unset' });
  });

  it("reads the hosts map as the settings page stores it, or as a hand-edited object, with core's rule", () => {
    expect(hostMapSetting('DIRECTOR01=10.0.0.7\nACTOR01 = 10.0.0.8:8080\n')).toEqual({ DIRECTOR01: '10.0.0.7', ACTOR01: '10.0.0.8:8080' });
    expect(hostMapSetting({ DIRECTOR01: ' 10.0.0.7 ' })).toEqual({ DIRECTOR01: '10.0.0.7' });
    for (const empty of [undefined, null, '', '  \n ', {}]) expect(hostMapSetting(empty)).toBeUndefined();
    expect(() => hostMapSetting('DIRECTOR01 10.0.0.7')).toThrow(/"DIRECTOR01 10.0.0.7" is not HOSTNAME=address/);
    expect(() => hostMapSetting({ DIRECTOR01: 7 })).toThrow(/address of DIRECTOR01 .* must be text/);
    expect(() => hostMapSetting(['DIRECTOR01=10.0.0.7'])).toThrow(/must be text, one NAME=address a line/);
  });

  it('never throws on odd JSON', () => {
    expect(asSettings(null)).toEqual({});
    expect(asSettings([1, 2])).toEqual({});
    expect(textSetting({})).toBeUndefined();
    expect(numberSetting('12.5')).toBe(12.5);
    expect(numberSetting('twelve')).toBeUndefined();
    expect(numberSetting(Number.NaN)).toBeUndefined();
    expect(numberSetting(null)).toBeUndefined();
  });
});
