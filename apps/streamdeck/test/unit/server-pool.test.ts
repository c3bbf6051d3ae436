import { MediaServer } from '@stagelink/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServerPool } from '../../src/state/server-pool.js';
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

  it('refuses a malformed address with a sentence', () => {
    const pool = new ServerPool({ logger: quietLogger });
    expect(() => pool.acquire('ftp://media')).toThrow(/http/);
    expect(() => pool.acquire('   ')).toThrow(/host/i);
  });
});
