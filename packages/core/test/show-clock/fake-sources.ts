import type { LiveRequest } from '../../src/live/presets.js';
import type { LiveStatus, LiveSubscribeOptions, LiveSubscription } from '../../src/live/live-client.js';
import type { LiveValue } from '../../src/live/subscription-registry.js';
import type { Multitransport, Transport } from '../../src/media-server/types.js';
import type { ClockSources, ClockTiming } from '../../src/show-clock/transport-clock.js';

/** A transport as the director lists it, stopped on its first track. */
export function transport(uid: string, name: string): Transport {
  const track = { uid: `${uid}-track`, name: `${name} track`, length: 60, crossfade: 'cut' };
  return {
    uid,
    name,
    engaged: true,
    volume: 1,
    brightness: 1,
    playmode: 'Stop',
    currentTrack: { uid: track.uid, name: track.name },
    receivingTimecode: false,
    setList: { uid: `${uid}-set`, name: `${name} set`, tracks: [track] },
  };
}

interface FakeSubscription {
  request: LiveRequest;
  onValue(value: LiveValue): void;
  options: LiveSubscribeOptions;
  closed: boolean;
}

export const TIMING: ClockTiming = { frozenAfterMs: 60_000, annotationsEveryMs: 60_000, retryMs: 50 };

/**
 * What the clocks read, without sockets: transports `main` (uid 1) and `side` (uid 2) and the multitransport
 * `stage` (uid 9) of both; the live stream is driven by the test.
 */
export function fakeSources() {
  const transports = [transport('1', 'main'), transport('2', 'side')];
  const multitransports: Multitransport[] = [{ uid: '9', name: 'stage', engaged: true, transports: ['1', '2'] }];
  const subscriptions: FakeSubscription[] = [];
  let reads = 0;
  const sources: ClockSources = {
    subscribe: (request, onValue, options = {}) => {
      const subscription: FakeSubscription = { request, onValue, options, closed: false };
      subscriptions.push(subscription);
      return {
        close: () => {
          subscription.closed = true;
        },
      } as LiveSubscription;
    },
    transports: () => {
      reads++;
      return Promise.resolve({ transports, multitransports });
    },
    tracks: () => Promise.resolve(transports.flatMap((each) => each.setList.tracks)),
    annotations: (track) => Promise.resolve({ uid: track.uid ?? '', name: '', annotations: { notes: [], tags: [], sections: [] } }),
  };
  const open = (object: string) => subscriptions.filter((each) => !each.closed && each.request.object === object);
  return {
    sources,
    subscriptions,
    get reads() {
      return reads;
    },
    /** The open subscriptions of a transport's live object. */
    open: (name: string) => open(`transportmanager:${name}`),
    /** The stream's status for every subscription of the transport. */
    status(name: string, status: LiveStatus) {
      for (const each of open(`transportmanager:${name}`)) each.options.onStatus?.(status);
    },
    /**
     * One property of the transport never answers: as the live client does, every subscription holding it is stale
     * (a subscription is stale while any of its properties is).
     */
    silent(name: string, property: string) {
      for (const each of open(`transportmanager:${name}`).filter((candidate) => candidate.request.properties.includes(property))) each.options.onStatus?.('stale');
    },
    /** The director sends these properties of the transport, each to the subscriptions that asked for it. */
    send(name: string, values: Record<string, unknown>) {
      const object = `transportmanager:${name}`;
      for (const [property, value] of Object.entries(values)) {
        for (const each of open(object).filter((candidate) => candidate.request.properties.includes(property))) each.onValue({ object, property, value });
      }
    },
  };
}

/** Every placing property of a stopped player at `time` on the transport's first track. */
export const stoppedAt = (uid: string, name: string, time: number) => ({
  'object.player.tRender': time,
  'object.player.playing': false,
  'object.player.playMode.state': 3,
  'str(object.player.track.uid)': `${uid}-track`,
  'str(object.player.track.description)': `${name} track`,
});

/** Lets queued promise callbacks and microtasks run. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
