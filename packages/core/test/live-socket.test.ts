import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../src/http/logger.js';
import { DEFAULT_LIVE_TIMING, LiveSocket } from '../src/live/live-socket.js';
import { HEALTHY_AFTER_MS } from '../src/live/reconnect-backoff.js';
import { startLiveServer } from './support/live-server.js';

/** Lets real socket I/O happen while the clock is fake; fails if `condition` does not hold within 5 s. */
async function ioUntil(condition: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 5000;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('LiveSocket reconnects', () => {
  let server: Awaited<ReturnType<typeof startLiveServer>>;
  let socket: LiveSocket;
  let attempts: number;
  let closes: number;

  beforeEach(async () => {
    server = await startLiveServer();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    // Full jitter at its top: every wait is its ceiling, less a millisecond.
    vi.spyOn(Math, 'random').mockReturnValue(0.999999);
    attempts = 0;
    closes = 0;
    // The URL is read once per connection attempt.
    const url = () => (attempts++, server.url);
    socket = new LiveSocket(url, { ...DEFAULT_LIVE_TIMING, heartbeatMs: 60_000 }, {
      onOpen: () => undefined,
      onClose: () => closes++,
      onFrame: () => undefined,
      onProblem: () => undefined,
    }, silentLogger);
  });

  afterEach(async () => {
    await socket.stop();
    vi.useRealTimers();
    vi.restoreAllMocks();
    await server.close();
  });

  /** The next attempt comes exactly `wait` ms after the last drop: not a millisecond sooner. */
  function expectNextAttemptAfter(wait: number): void {
    const before = attempts;
    vi.advanceTimersByTime(wait - 1);
    expect(attempts, `no attempt before ${wait} ms`).toBe(before);
    vi.advanceTimersByTime(1);
    expect(attempts, `an attempt at ${wait} ms`).toBe(before + 1);
  }

  it('does not reconnect to a server that answers then drops any faster than the back-off schedule', async () => {
    socket.start();
    for (const wait of [99, 199, 399, 799, 999, 999]) {
      await ioUntil(() => closes === attempts, 'the server to drop the socket');
      expectNextAttemptAfter(wait);
    }
    expect(server.state.connections).toBeGreaterThanOrEqual(6);
  });

  it('starts the schedule over after a connection that stayed healthy', async () => {
    socket.start();
    for (const wait of [99, 199, 399]) {
      await ioUntil(() => closes === attempts, 'the drop');
      expectNextAttemptAfter(wait);
    }
    await ioUntil(() => closes === attempts, 'the drop');
    server.state.hold = true;
    expectNextAttemptAfter(799);
    await ioUntil(() => server.state.held !== undefined && socket.isOpen, 'a connection that stays');
    vi.advanceTimersByTime(HEALTHY_AFTER_MS);
    server.state.held?.close();
    await ioUntil(() => closes === attempts, 'the drop');
    expectNextAttemptAfter(99);
  });
});

describe('LiveSocket listeners', () => {
  it('keeps reconnecting when the listener told of a drop throws', async () => {
    const server = await startLiveServer();
    let attempts = 0;
    const problems: string[] = [];
    const socket = new LiveSocket(() => (attempts++, server.url), { ...DEFAULT_LIVE_TIMING, reconnectBaseMs: 10, reconnectCapMs: 20 }, {
      onOpen: () => undefined,
      onClose: () => {
        throw new Error('a host listener broke');
      },
      onFrame: () => undefined,
      onProblem: (problem) => problems.push(problem.message),
    }, silentLogger);
    try {
      socket.start();
      await vi.waitFor(() => expect(attempts).toBeGreaterThanOrEqual(3), { timeout: 5000 });
      expect(problems[0]).toContain('a host listener broke');
    } finally {
      await socket.stop();
      await server.close();
    }
  });
});
