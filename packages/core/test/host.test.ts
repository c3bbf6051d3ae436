import { describe, expect, it } from 'vitest';
import { InvalidInputError, MediaServer, originOf, parseHostList, parseHostMap, parseInterfaceAddress } from '../src/index.js';

describe('originOf', () => {
  it.each([
    ['10.0.0.5', 'http://10.0.0.5'],
    ['media-1:8080', 'http://media-1:8080'],
    ['http://10.0.0.5', 'http://10.0.0.5'],
    ['http://10.0.0.5:80', 'http://10.0.0.5'],
    ['http://10.0.0.5:9000/', 'http://10.0.0.5:9000'],
    ['  [::1]:8080 ', 'http://[::1]:8080'],
  ])('reads %s as %s', (host, origin) => {
    expect(originOf(host)).toBe(origin);
  });

  it.each(['', 'ftp://x', 'http://'])('refuses %j with a clear error', (host) => {
    expect(() => originOf(host)).toThrow(InvalidInputError);
  });

  it.each([
    [5, 'the number 5'],
    [true, 'the boolean true'],
    [{ host: '10.0.0.5' }, 'the object {"host":"10.0.0.5"}'],
  ])('refuses the non-text host %j, naming it, instead of reading it as an address', (host, named) => {
    expect(() => originOf(host)).toThrow(InvalidInputError);
    expect(() => originOf(host)).toThrow(`The media-server host must be text, not ${named}:`);
  });

  it.each([undefined, null, '  '])('says no host was given for %j', (host) => {
    expect(() => originOf(host)).toThrow(/^No media-server host given/);
  });

  it('refuses a non-text host when a client is made, before any request', () => {
    expect(() => new MediaServer({ host: 5 as never })).toThrow(/must be text, not the number 5/);
  });
});

describe('parseHostList', () => {
  it('reads addresses one a line or separated by commas, in order, as origins, leaving out blanks and # lines', () => {
    expect(parseHostList('10.0.0.6\n# the editor\n  media-2:8080 ,http://10.0.0.8:80,\n\n')).toEqual(['http://10.0.0.6', 'http://media-2:8080', 'http://10.0.0.8']);
    expect(parseHostList('')).toEqual([]);
    expect(parseHostList(' \n # none yet')).toEqual([]);
  });

  it('names the entry that is not an address, and which of the list it is', () => {
    expect(() => parseHostList('10.0.0.6, ftp://10.0.0.7')).toThrow(InvalidInputError);
    expect(() => parseHostList('10.0.0.6, ftp://10.0.0.7')).toThrow(/^Address 2 of the list: "ftp:\/\/10\.0\.0\.7" uses ftp/);
    expect(() => parseHostList('http://')).toThrow(/^Address 1 of the list: .*http:\/\//);
  });

  it('refuses a list that is not text, naming what it is', () => {
    expect(() => parseHostList(['10.0.0.6'] as never)).toThrow(/must be text, one address a line, not the object \["10\.0\.0\.6"\]/);
  });
});

describe('parseInterfaceAddress', () => {
  it('reads an IPv4 address as typed, trimmed', () => {
    expect(parseInterfaceAddress(' 10.0.0.20 ')).toBe('10.0.0.20');
    expect(parseInterfaceAddress('127.0.0.1')).toBe('127.0.0.1');
  });

  it.each([undefined, null, '', '   '])('reads %j as every interface', (text) => {
    expect(parseInterfaceAddress(text)).toBeUndefined();
  });

  it.each(['eth0', '10.0.0.300', '10.0.0', 'fe80::1', 'http://10.0.0.20', '10.0.0.20:5353'])('refuses %j, saying what to type instead', (text) => {
    expect(() => parseInterfaceAddress(text)).toThrow(InvalidInputError);
    expect(() => parseInterfaceAddress(text)).toThrow(`"${text}" is not an IPv4 address: give this computer's address on the show network, such as 10.0.0.20, or leave the DNS-SD interface blank`);
  });

  it('refuses what is not text, naming it', () => {
    expect(() => parseInterfaceAddress(10)).toThrow(/must be text, an IPv4 address of this computer such as 10\.0\.0\.20, not the number 10\./);
  });
});

describe('addresses checked when a client is made', () => {
  it('refuses a hosts entry that is not an address, naming the entry and its value, before anything starts', () => {
    const made = () => new MediaServer({ host: '127.0.0.1:9', followDirector: true, hosts: { DIRECTOR01: '10.0.0.5', ACTOR01: '10.0.0.256' } });
    expect(made).toThrow(InvalidInputError);
    expect(made).toThrow(/ACTOR01 in hosts \("10\.0\.0\.256"\) is not an address/);
  });

  it('refuses a hosts map that is not a map, a name that is no hostname, and an address with a path', () => {
    expect(() => new MediaServer({ host: '127.0.0.1:9', hosts: ['10.0.0.5'] as never })).toThrow(/hosts must map machine hostnames to addresses/);
    expect(() => new MediaServer({ host: '127.0.0.1:9', hosts: { 'ACTOR 01': '10.0.0.6' } })).toThrow(/"ACTOR 01" in hosts is not a machine's hostname/);
    expect(() => new MediaServer({ host: '127.0.0.1:9', hosts: { ACTOR01: '10.0.0.6/api' } })).toThrow(/ACTOR01 in hosts \("10\.0\.0\.6\/api"\)/);
    expect(() => new MediaServer({ host: '127.0.0.1:9', hosts: { ACTOR01: 6 as never } })).toThrow(/ACTOR01 in hosts \(6\)/);
  });

  it('refuses a backup address and an SMC address that are not addresses, naming them', () => {
    expect(() => new MediaServer({ host: '127.0.0.1:9', followDirector: true, backupHosts: ['10.0.0.256'] })).toThrow(/"10\.0\.0\.256" is not a valid media-server address/);
    expect(() => new MediaServer({ host: '127.0.0.1:9', smcs: { ACTOR01: { host: '10.0.1.256' } } })).toThrow(/The SMC of ACTOR01: address is not usable: "10\.0\.1\.256"/);
  });

  it('reads a hosts line with a bad address as an error naming it, when the settings text is read', () => {
    expect(() => parseHostMap('DIRECTOR01=10.0.0.5\nACTOR01=10.0.0.256')).toThrow(/ACTOR01 in hosts \("10\.0\.0\.256"\) is not an address/);
  });
});
