import { isPlaying, worstHealth, type FpsAlert, type HealthEntry, type Severity, type Transport } from '@stagelink/core';
import type { NodeMessage } from '../../shared/node-red.js';
import { Changes } from './changes.js';
import type { EventKind } from './event-settings.js';
import type { LiveWatch } from './machine-live.js';

export type Connection = 'online' | 'offline';

/** One msg per change an operator reacts to: `msg.topic` says what changed, `msg.payload` the new and previous value. */
export type ShowEventMessage = NodeMessage & { topic: string; event: EventKind; payload: { value: unknown; previous: unknown; [detail: string]: unknown } };

/**
 * Turns readings of the show (polled or live) into events: each watched thing's first reading is only noted, and
 * every later change of it becomes one msg. Kinds the node does not watch are read but never sent.
 */
export class ShowEvents {
  readonly #director = new Changes<string>();
  readonly #playmodes = new Changes<string>();
  readonly #tracks = new Changes<string>();
  readonly #health = new Changes<Severity>();
  readonly #takeovers = new Changes<boolean>();
  readonly #fps = new Changes<FpsAlert>();
  readonly #stale = new Changes<boolean>();
  readonly #connection = new Changes<Connection>();

  constructor(
    private readonly kinds: ReadonlySet<EventKind>,
    private readonly send: (msg: ShowEventMessage) => void,
  ) {}

  director(hostname: string, url?: string): void {
    const change = this.#director.see('director', hostname);
    if (change) this.#send('director', 'director', { value: hostname, previous: change.previous, ...(url ? { url } : {}) });
  }

  transports(transports: readonly Transport[]): void {
    for (const transport of transports) {
      if (typeof transport?.name !== 'string') continue;
      const { name } = transport;
      const playmode = this.#playmodes.see(name, transport.playmode);
      if (playmode) {
        const wasPlaying = isPlaying({ playmode: playmode.previous });
        this.#send('playmode', `transport/${name}/playmode`, { value: transport.playmode, previous: playmode.previous, transport: name, playing: isPlaying(transport), wasPlaying });
      }
      const track = transport.currentTrack?.name;
      if (typeof track !== 'string') continue;
      const moved = this.#tracks.see(name, track);
      if (moved) this.#send('track', `transport/${name}/track`, { value: track, previous: moved.previous, transport: name, playmode: transport.playmode });
    }
  }

  /** Each machine's worst severity, found in any case of its hostname (core's health rules). */
  health(hostnames: readonly string[], entries: readonly HealthEntry[]): void {
    for (const hostname of hostnames) {
      const severity = worstHealth(entries, hostname);
      const change = this.#health.see(hostname.toLowerCase(), severity);
      if (change) this.#send('health', `machine/${hostname}/health`, { value: severity, previous: change.previous, machine: hostname });
    }
  }

  takeover(hostname: string, takenOver: boolean): void {
    const change = this.#takeovers.see(hostname.toLowerCase(), takenOver);
    if (change) this.#send('takeover', `machine/${hostname}/takeover`, { value: takenOver, previous: change.previous, machine: hostname });
  }

  fps(hostname: string, alert: FpsAlert, average: number, target: number): void {
    const change = this.#fps.see(hostname.toLowerCase(), alert);
    if (change) this.#send('fps', `machine/${hostname}/fps`, { value: alert, previous: change.previous, machine: hostname, fps: average, target });
  }

  /** A machine's live value stopped (`true`) or flows again (`false`), while the server stays reachable. */
  stale(hostname: string, watching: LiveWatch, stale: boolean): void {
    const change = this.#stale.see(`${hostname.toLowerCase()}/${watching}`, stale);
    if (change) this.#send('stale', `machine/${hostname}/${watching}/stale`, { value: stale, previous: change.previous, machine: hostname, watching });
  }

  /** A server that does not answer from the deploy on is an outage too: said once, with nothing before it. */
  connection(state: Connection): void {
    const first = !this.#connection.has('connection');
    const change = this.#connection.see('connection', state);
    if (change) this.#send('connection', 'connection', { value: state, previous: change.previous });
    else if (first && state === 'offline') this.#send('connection', 'connection', { value: state, previous: null });
  }

  #send(event: EventKind, topic: string, payload: ShowEventMessage['payload']): void {
    if (this.kinds.has(event)) this.send({ topic, event, payload });
  }
}
