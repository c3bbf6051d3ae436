import { describe, expect, it } from 'vitest';
import { asSettings, chooseHost, numberSetting, textSetting } from '../../src/settings.js';

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
