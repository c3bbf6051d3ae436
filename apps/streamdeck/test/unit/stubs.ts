/** Stand-ins for core's MediaServer and the Stream Deck surfaces, for tile tests without sockets. */
import type { LiveRequest, LiveStatus, LiveSubscribeOptions, LiveValue, MediaServer } from '@stagelink/core';
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

export function stubServer() {
  const live = new StubLive();
  const server = {
    live,
    status: { health: vi.fn(), session: vi.fn() },
    transport: { transports: vi.fn(), send: vi.fn(), setVolume: vi.fn(), setBrightness: vi.fn() },
    close: vi.fn(() => Promise.resolve()),
    on: vi.fn(),
    off: vi.fn(),
  };
  return { server, live, asMediaServer: server as unknown as MediaServer };
}

export const quietLogger = { warn: vi.fn(), debug: vi.fn() };

export function stubPool(asMediaServer: MediaServer, options: { healthIntervalMs?: number; transportsIntervalMs?: number } = {}): ServerPool {
  return new ServerPool({ logger: quietLogger, create: () => asMediaServer, idleCloseMs: 10, ...options });
}

export function keyRecorder() {
  const images: string[] = [];
  let oks = 0;
  let alerts = 0;
  const surface: KeySurface = {
    setImage: (svg) => images.push(svg),
    showOk: () => oks++,
    showAlert: () => alerts++,
  };
  return {
    surface,
    images,
    get oks() {
      return oks;
    },
    get alerts() {
      return alerts;
    },
    get latest() {
      return images.at(-1) ?? '';
    },
  };
}

export function dialRecorder() {
  const feedback: Record<string, unknown>[] = [];
  let alerts = 0;
  const surface: DialSurface = {
    setFeedback: (payload) => feedback.push(payload),
    showAlert: () => alerts++,
  };
  return {
    surface,
    feedback,
    get alerts() {
      return alerts;
    },
  };
}

/** Lets pending promise callbacks run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}
