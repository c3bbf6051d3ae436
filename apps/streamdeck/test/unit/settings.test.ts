import { describe, expect, it } from 'vitest';
import { asSettings, backupHostsSetting, chooseHost, directorSearchSetting, DirectorSearchError, hostMapSetting, numberSetting, textSetting } from '../../src/settings.js';

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

  it('hands the backup addresses and DNS-SD on with the global host only: a key with its own address is on another session', () => {
    const global = { host: '10.0.0.5', hosts: 'DIRECTOR01=10.0.0.7', backupHosts: '10.0.0.6', dnssd: true };
    expect(chooseHost(undefined, global)).toEqual({ kind: 'host', host: '10.0.0.5', hosts: 'DIRECTOR01=10.0.0.7', backupHosts: '10.0.0.6', dnssd: true });
    expect(chooseHost('10.0.0.9', global)).toEqual({ kind: 'host', host: '10.0.0.9', hosts: 'DIRECTOR01=10.0.0.7' });
  });

  it("reads the backup addresses as the settings page stores them, or as a hand-edited list, with core's rule", () => {
    expect(backupHostsSetting('10.0.0.6\n# the editor\nmedia-2:8080, http://10.0.0.8:80')).toEqual(['http://10.0.0.6', 'http://media-2:8080', 'http://10.0.0.8']);
    expect(backupHostsSetting(['10.0.0.6', ' 10.0.0.7 '])).toEqual(['http://10.0.0.6', 'http://10.0.0.7']);
    for (const empty of [undefined, null, '', ' \n ', []]) expect(backupHostsSetting(empty)).toBeUndefined();
    expect(() => backupHostsSetting('10.0.0.6\nftp://10.0.0.7')).toThrow(/^Address 2 of the list: "ftp:\/\/10\.0\.0\.7" uses ftp/);
    expect(() => backupHostsSetting({ UNDERSTUDY01: '10.0.0.6' })).toThrow(/Backup addresses must be text, one address a line/);
    expect(() => backupHostsSetting([6])).toThrow(/Backup addresses must be text/);
  });

  it('reads the whole director search, naming the setting that cannot be read', () => {
    expect(directorSearchSetting({ hosts: 'DIRECTOR01=10.0.0.7', backupHosts: '10.0.0.6', dnssd: true })).toEqual({
      hosts: { DIRECTOR01: '10.0.0.7' },
      backupHosts: ['http://10.0.0.6'],
      dnssd: true,
    });
    // Only `true` turns DNS-SD on: it joins the mDNS group on the show network.
    expect(directorSearchSetting({ hosts: '', backupHosts: '', dnssd: 'yes' })).toEqual({});
    const refused = (stored: Parameters<typeof directorSearchSetting>[0]) => {
      try {
        directorSearchSetting(stored);
      } catch (error) {
        return error;
      }
      throw new Error('not refused');
    };
    expect(refused({ backupHosts: 'ftp://x' })).toMatchObject({ setting: 'backupHosts', code: 'STAGELINK_ERR_INVALID_INPUT' });
    expect(refused({ hosts: 'DIRECTOR01 10.0.0.7', backupHosts: 'ftp://x' })).toBeInstanceOf(DirectorSearchError);
    expect(refused({ hosts: 'DIRECTOR01 10.0.0.7' })).toMatchObject({ setting: 'hosts' });
  });

  it("reads the DNS-SD interface with core's rule, only while DNS-SD is on, naming it when it is no IPv4 address", () => {
    expect(directorSearchSetting({ dnssd: true, dnssdInterface: ' 10.0.0.20 ' })).toEqual({ dnssd: true, dnssdInterface: '10.0.0.20' });
    expect(directorSearchSetting({ dnssd: true, dnssdInterface: '' })).toEqual({ dnssd: true });
    // With DNS-SD off the field is not used, so what it holds cannot stop the keys.
    expect(directorSearchSetting({ dnssd: false, dnssdInterface: 'eth0' })).toEqual({});
    expect(() => directorSearchSetting({ dnssd: true, dnssdInterface: 'eth0' })).toThrow(DirectorSearchError);
    expect(() => directorSearchSetting({ dnssd: true, dnssdInterface: 'eth0' })).toThrow(/^"eth0" is not an IPv4 address/);
    try {
      directorSearchSetting({ dnssd: true, dnssdInterface: 'eth0' });
    } catch (error) {
      expect(error).toMatchObject({ setting: 'dnssdInterface' });
    }
    const global = { host: '10.0.0.5', dnssd: true, dnssdInterface: '10.0.0.20' };
    expect(chooseHost(undefined, global)).toEqual({ kind: 'host', host: '10.0.0.5', dnssd: true, dnssdInterface: '10.0.0.20' });
    expect(chooseHost('10.0.0.9', global)).toEqual({ kind: 'host', host: '10.0.0.9' });
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
