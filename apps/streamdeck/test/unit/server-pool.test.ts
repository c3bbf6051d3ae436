import { MediaServer, type MediaServerOptions } from '@stagelink/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServerPool } from '../../src/state/connection/server-pool.js';
import { quietLogger } from './stubs.js';

describe('ServerPool', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shares one client per host, however the host is written', async () => {
    const created: MediaServer[] = [];
    const pool = new ServerPool({ logger: quietLogger, create: (options) => (created.push(new MediaServer(options)), created.at(-1)!) });
    const a = pool.acquire('10.0.0.5');
    const b = pool.acquire('http://10.0.0.5:80');
    const c = pool.acquire('10.0.0.6:8080');
    expect(a.server).toBe(b.server);
    expect(c.server).not.toBe(a.server);
    expect(created).toHaveLength(2);
    expect(pool.openOrigins).toEqual(['http://10.0.0.5', 'http://10.0.0.6:8080']);
    await pool.close();
  });

  it("gives core the hosts map, and a client of its own to each map, however it is written", async () => {
    const made: MediaServerOptions[] = [];
    const pool = new ServerPool({ logger: quietLogger, create: (options) => (made.push(options), new MediaServer(options)) });
    const plain = pool.acquire('10.0.0.6');
    const mapped = pool.acquire('10.0.0.6', { hosts: { DIRECTOR01: '10.0.0.5', ACTOR02: '10.0.0.7' } });
    const same = pool.acquire('http://10.0.0.6', { hosts: { actor02: '10.0.0.7', director01: '10.0.0.5' } });
    const other = pool.acquire('10.0.0.6', { hosts: { DIRECTOR01: '10.0.0.9' } });
    expect(made.map((options) => options.hosts)).toEqual([undefined, { DIRECTOR01: '10.0.0.5', ACTOR02: '10.0.0.7' }, { DIRECTOR01: '10.0.0.9' }]);
    expect(made.every((options) => options.followDirector === true)).toBe(true);
    expect(same.server).toBe(mapped.server);
    expect(new Set([plain.server, mapped.server, other.server]).size).toBe(3);
    expect(pool.openOrigins).toEqual(['http://10.0.0.6', 'http://10.0.0.6', 'http://10.0.0.6']);
    await pool.close();
  });

  it('gives core the backup addresses and DNS-SD, and shares a client only between keys that look for the director alike', async () => {
    const made: MediaServerOptions[] = [];
    const pool = new ServerPool({ logger: quietLogger, create: (options) => (made.push(options), new MediaServer(options)) });
    const hosts = { DIRECTOR01: '10.0.0.5' };
    const plain = pool.acquire('10.0.0.5', { hosts });
    const backed = pool.acquire('10.0.0.5', { hosts, backupHosts: ['http://10.0.0.6', 'http://10.0.0.7'] });
    const sameBacked = pool.acquire('http://10.0.0.5:80', { hosts: { director01: '10.0.0.5' }, backupHosts: ['10.0.0.6', 'http://10.0.0.7:80'] });
    // Core asks backup addresses in order: another order is another client.
    const reordered = pool.acquire('10.0.0.5', { hosts, backupHosts: ['http://10.0.0.7', 'http://10.0.0.6'] });
    const otherBackup = pool.acquire('10.0.0.5', { hosts, backupHosts: ['http://10.0.0.8'] });
    const listening = pool.acquire('10.0.0.5', { hosts, dnssd: true });
    const both = pool.acquire('10.0.0.5', { hosts, backupHosts: ['http://10.0.0.6', 'http://10.0.0.7'], dnssd: true });
    expect(sameBacked.server).toBe(backed.server);
    expect(new Set([plain, backed, reordered, otherBackup, listening, both].map((lease) => lease.server)).size).toBe(6);
    expect(new Set([plain, backed, reordered, otherBackup, listening, both].map((lease) => lease.key)).size).toBe(6);
    expect(made.map(({ backupHosts, dnssd }) => ({ backupHosts, dnssd }))).toEqual([
      { backupHosts: undefined, dnssd: undefined },
      { backupHosts: ['http://10.0.0.6', 'http://10.0.0.7'], dnssd: undefined },
      { backupHosts: ['http://10.0.0.7', 'http://10.0.0.6'], dnssd: undefined },
      { backupHosts: ['http://10.0.0.8'], dnssd: undefined },
      { backupHosts: undefined, dnssd: true },
      { backupHosts: ['http://10.0.0.6', 'http://10.0.0.7'], dnssd: true },
    ]);
    expect(made.every((options) => options.followDirector === true && options.hosts === hosts)).toBe(true);
    await pool.close();
  });

  it('gives keys that listen for DNS-SD on another interface a client of their own, listening there', async () => {
    const made: MediaServerOptions[] = [];
    const pool = new ServerPool({ logger: quietLogger, create: (options) => (made.push(options), new MediaServer(options)) });
    const everywhere = pool.acquire('10.0.0.5', { dnssd: true });
    const showNetwork = pool.acquire('10.0.0.5', { dnssd: true, dnssdInterface: '10.0.0.20' });
    const again = pool.acquire('10.0.0.5', { dnssd: true, dnssdInterface: '10.0.0.20' });
    expect(again.server).toBe(showNetwork.server);
    expect(showNetwork.server).not.toBe(everywhere.server);
    expect(made.map(({ dnssd, dnssdInterface }) => ({ dnssd, dnssdInterface }))).toEqual([
      { dnssd: true, dnssdInterface: undefined },
      { dnssd: true, dnssdInterface: '10.0.0.20' },
    ]);
    await pool.close();
  });

  it('closes a client once nobody holds it for the grace period, and keeps it across a quick re-acquire', async () => {
    const close = vi.spyOn(MediaServer.prototype, 'close');
    const pool = new ServerPool({ logger: quietLogger, idleCloseMs: 1000 });
    const first = pool.acquire('10.0.0.5');
    first.release();
    first.release(); // idempotent
    await vi.advanceTimersByTimeAsync(500);
    const second = pool.acquire('10.0.0.5');
    expect(second.server).toBe(first.server);
    await vi.advanceTimersByTimeAsync(2000);
    expect(close).not.toHaveBeenCalled();
    second.release();
    await vi.advanceTimersByTimeAsync(1000);
    expect(close).toHaveBeenCalledTimes(1);
    expect(pool.openOrigins).toEqual([]);
    close.mockRestore();
  });

  it('on wake, polls every watched list of every server at once and reconnects their live streams', async () => {
    const servers: MediaServer[] = [];
    const pool = new ServerPool({ logger: quietLogger, create: (options) => (servers.push(new MediaServer(options)), servers.at(-1)!) });
    const a = pool.acquire('10.0.0.5');
    const b = pool.acquire('10.0.0.6');
    const health = vi.spyOn(a.server.status, 'health').mockImplementation(() => new Promise(() => undefined));
    const transports = vi.spyOn(b.server.transport, 'transports').mockImplementation(() => new Promise(() => undefined));
    const reconnects = servers.map((server) => vi.spyOn(server.live, 'reconnect'));
    a.health.watch(() => undefined);
    b.transports.watch(() => undefined);
    expect(health).toHaveBeenCalledTimes(1);
    expect(transports).toHaveBeenCalledTimes(1);

    pool.wake();
    expect(health).toHaveBeenCalledTimes(2);
    expect(transports).toHaveBeenCalledTimes(2);
    expect(reconnects.map((reconnect) => reconnect.mock.calls.length)).toEqual([1, 1]);
    await pool.close();
  });

  it('gives each server a logger of its own when asked', () => {
    const hosts: string[] = [];
    const pool = new ServerPool({ logger: quietLogger, serverLogger: (host) => (hosts.push(host), quietLogger) });
    pool.acquire('http://10.0.0.5:8080');
    pool.acquire('media-1');
    expect(hosts).toEqual(['10.0.0.5:8080', 'media-1']);
    void pool.close();
  });

  it('refuses a malformed address with a sentence', () => {
    const pool = new ServerPool({ logger: quietLogger });
    expect(() => pool.acquire('ftp://media')).toThrow(/http/);
    expect(() => pool.acquire('   ')).toThrow(/host/i);
  });
});
