/** Stand-ins for core's MediaServer and the Stream Deck surfaces, for tile tests without sockets. */
import type { LayersSnapshot, LiveRequest, LiveStatus, LiveSubscribeOptions, LiveValue, MediaServer } from '@stagelink/core';
import { vi, type Mock } from 'vitest';
import type { DialSurface, KeySurface } from '../../src/tiles/tile.js';
import { ServerPool } from '../../src/state/connection/server-pool.js';

export interface StubSubscription {
  request: LiveRequest;
  onValue: (value: LiveValue) => void;
  options: LiveSubscribeOptions;
  closed: boolean;
  status: LiveStatus;
  /** What was written through `set`; resolves unless a test makes it reject. */
  set: Mock<(value: unknown) => Promise<void>>;
  close(): void;
}

export class StubLive {
  readonly subscriptions: StubSubscription[] = [];
  status: LiveStatus = 'connecting';

  subscribe(request: LiveRequest, onValue: (value: LiveValue) => void, options: LiveSubscribeOptions = {}): StubSubscription {
    const readStatus = (): LiveStatus => this.status;
    const subscription: StubSubscription = {
      request,
      onValue,
      options,
      closed: false,
      get status() {
        return readStatus();
      },
      set: vi.fn(() => Promise.resolve()),
      close() {
        this.closed = true;
      },
    };
    this.subscriptions.push(subscription);
    return subscription;
  }

  get open(): StubSubscription[] {
    return this.subscriptions.filter((subscription) => !subscription.closed);
  }

  setStatus(status: LiveStatus): void {
    this.status = status;
    for (const subscription of this.open) subscription.options.onStatus?.(status);
  }

  emit(value: unknown, only?: (subscription: StubSubscription) => boolean): void {
    for (const subscription of this.open.filter(only ?? (() => true))) {
      subscription.onValue({ object: subscription.request.object, property: subscription.request.properties[0] ?? '', value });
    }
  }
}

/** A stand-in for core's `renderstream`: each watch opened, told what the test says, and the commands as mocks. */
export class StubRenderStream {
  readonly watches: { tell: (snapshot: LayersSnapshot) => void; closed: boolean }[] = [];
  readonly operate = vi.fn((_operation: string, _layer: unknown, _options?: unknown) => Promise.resolve());

  watch(onChange: (snapshot: LayersSnapshot) => void): { current: undefined; close(): void } {
    const watch = { tell: onChange, closed: false };
    this.watches.push(watch);
    return { current: undefined, close: () => void (watch.closed = true) };
  }

  get open(): { tell: (snapshot: LayersSnapshot) => void; closed: boolean }[] {
    return this.watches.filter((watch) => !watch.closed);
  }

  /** Tells every open watch `snapshot`, as core's poll does after a read. */
  tell(snapshot: LayersSnapshot): void {
    for (const watch of this.open) watch.tell(snapshot);
  }
}

export function stubServer() {
  const live = new StubLive();
  const renderstream = new StubRenderStream();
  const server = {
    live,
    renderstream,
    status: { health: vi.fn(), session: vi.fn() },
    transport: { transports: vi.fn(), send: vi.fn(), setVolume: vi.fn(), setBrightness: vi.fn() },
    // A director without a description of its API: nothing is refused for it.
    describe: vi.fn(() => Promise.reject(new Error('no description'))),
    close: vi.fn(() => Promise.resolve()),
    on: vi.fn(),
    off: vi.fn(),
  };
  return { server, live, renderstream, asMediaServer: server as unknown as MediaServer };
}

export const quietLogger = { warn: vi.fn(), debug: vi.fn() };

/** The host a key is set to in these tests. */
export const host = { kind: 'host', host: 'http://10.0.0.5' } as const;

/** The server's transport list: one transport, `main`, at `volume` and full brightness. */
export const transportList = (volume: number, playmode = 'stop') => ({
  transports: [{ uid: '1', name: 'main', playmode, volume, brightness: 1 }],
  multitransports: [],
});

export function stubPool(asMediaServer: MediaServer, options: { healthIntervalMs?: number; transportsIntervalMs?: number } = {}): ServerPool {
  return new ServerPool({ logger: quietLogger, create: () => asMediaServer, idleCloseMs: 10, ...options });
}

/** What a key was shown: every image, and how many OKs and alerts. */
export function keyRecorder() {
  const key = {
    images: [] as string[],
    oks: 0,
    alerts: 0,
    get latest(): string {
      return key.images.at(-1) ?? '';
    },
    surface: {
      setImage: (svg) => void key.images.push(svg),
      showOk: () => void key.oks++,
      showAlert: () => void key.alerts++,
    } satisfies KeySurface,
  };
  return key;
}

/** What a dial's touch strip was shown, and how many alerts. */
export function dialRecorder() {
  const dial = {
    feedback: [] as Record<string, unknown>[],
    alerts: 0,
    surface: {
      setFeedback: (payload) => void dial.feedback.push(payload),
      showAlert: () => void dial.alerts++,
    } satisfies DialSurface,
  };
  return dial;
}

/** Lets pending promise callbacks run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}
