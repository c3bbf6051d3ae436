import { createSocket, type Socket } from 'node:dgram';
import { isIP } from 'node:net';
import { reasonOf, Throttle } from '@stagelink/core';
import { encode } from 'node-osc';
import type { BridgeLog } from './log.js';
import { oscHostAddress, type HostLookup } from './osc-host.js';
import { OnceAPeriod } from './once-a-period.js';
import { oscMemberBase, oscValuesOf, type OscArg } from './osc-state.js';
import type { BridgeAdapter, Member, StateEvent } from './session-events.js';

/** Where OSC values go: a receiver's host (name or address) and UDP port. */
export interface OscTarget {
  host: string;
  port: number;
}

const HEARTBEAT_MS = 1000;
/** Every value is sent again this often, so a panel started after the bridge has the whole state within seconds. */
const REFRESH_EVERY_HEARTBEATS = 5;
/** Host names are looked up again this often: a console's DHCP lease may move it. */
const LOOKUP_EVERY_HEARTBEATS = 60;

export interface OscOutOptions {
  /** The family names are looked up in first: the OSC socket's (IPv6 when `--osc-listen` is an IPv6 address). Default 4. */
  family?: 4 | 6;
  /** How names are looked up (the system's resolver by default). */
  lookUp?: HostLookup;
}

interface Resolved {
  target: OscTarget;
  address?: string;
  family?: 4 | 6;
}

/**
 * The bridge's state as OSC messages over UDP to every target: each address at most once a period (the newest
 * value winning), every value sent again every few seconds, and `/stagelink/<name>/bridge s online` every second,
 * `offline` once when the bridge stops. A target that cannot be reached is said once a minute; nothing is queued.
 */
export class OscOut implements BridgeAdapter {
  readonly #root: string;
  readonly #targets: Resolved[];
  readonly #throttles = new Map<string, Throttle<OscArg[]>>();
  readonly #last = new Map<string, OscArg[]>();
  readonly #problems = new OnceAPeriod();
  readonly #heartbeat: NodeJS.Timeout;
  #sockets: { 4?: Socket; 6?: Socket } = {};
  #beats = 0;
  #closed = false;

  constructor(
    targets: readonly OscTarget[],
    name: string,
    private readonly periodMs: number,
    private readonly log: BridgeLog,
    private readonly options: OscOutOptions = {},
  ) {
    this.#root = `/stagelink/${name}`;
    this.#targets = targets.map((target) => {
      const family = isIP(target.host);
      return family === 0 ? { target } : { target, address: target.host, family: family as 4 | 6 };
    });
    void this.#lookUp();
    this.#heartbeat = setInterval(() => this.#beat(), HEARTBEAT_MS);
    this.#beat();
  }

  /** A value changed: its OSC values go out at the pace. */
  state(event: StateEvent): void {
    if (this.#closed) return;
    for (const { address, args } of oscValuesOf(event)) this.#offer(address, args);
  }

  /** A machine or transport that left: each of its values is said stale once (a panel greys it out), then never again. */
  removed(member: Member): void {
    const below = `${oscMemberBase(member)}/`;
    for (const address of [...this.#last.keys()]) {
      if (!address.startsWith(below)) continue;
      this.#last.delete(address);
      this.#throttles.get(address)?.close();
      this.#throttles.delete(address);
      if (address.endsWith('/stale')) void this.#send(address, [{ type: 'i', value: 1 }]);
    }
  }

  /** Says `offline` once, then releases the sockets. Safe to call more than once. */
  async close(): Promise<void> {
    if (this.#closed) return;
    clearInterval(this.#heartbeat);
    // The last word waits for its sends (at most a moment) before the sockets close under it.
    await Promise.race([this.#send('/bridge', [{ type: 's', value: 'offline' }]), new Promise((resolve) => setTimeout(resolve, 500).unref())]);
    this.#closed = true;
    for (const throttle of this.#throttles.values()) throttle.close();
    this.#throttles.clear();
    const sockets = Object.values(this.#sockets);
    this.#sockets = {};
    await Promise.all(sockets.map((socket) => new Promise<void>((resolve) => socket.close(() => resolve()))));
  }

  #offer(address: string, args: OscArg[]): void {
    this.#last.set(address, args);
    let throttle = this.#throttles.get(address);
    if (!throttle) {
      throttle = new Throttle((latest) => void this.#send(address, latest), this.periodMs);
      this.#throttles.set(address, throttle);
    }
    throttle.push(args);
  }

  #beat(): void {
    this.#beats++;
    void this.#send('/bridge', [{ type: 's', value: 'online' }]);
    if (this.#beats % REFRESH_EVERY_HEARTBEATS === 0) for (const [address, args] of this.#last) this.#offer(address, args);
    if (this.#beats % LOOKUP_EVERY_HEARTBEATS === 0) void this.#lookUp();
  }

  async #lookUp(): Promise<void> {
    for (const resolved of this.#targets) {
      if (isIP(resolved.target.host) !== 0) continue;
      try {
        const { address, family } = await oscHostAddress(resolved.target.host, this.options.family ?? 4, this.options.lookUp);
        resolved.address = address;
        resolved.family = family;
      } catch (error) {
        this.#problem(resolved.target, `cannot look up ${resolved.target.host}: ${reasonOf(error)}`);
      }
    }
  }

  /** Sends one message to every target; resolves when every send has gone (or failed). */
  #send(address: string, args: OscArg[]): Promise<void> {
    if (this.#closed) return Promise.resolve();
    let packet: Buffer;
    try {
      packet = encode({ oscType: 'message', address: `${this.#root}${address}`, args });
    } catch (error) {
      this.log.warn('osc value not encoded', { address: `${this.#root}${address}`, reason: reasonOf(error) });
      return Promise.resolve();
    }
    const sends: Promise<void>[] = [];
    for (const resolved of this.#targets) {
      if (resolved.address === undefined || resolved.family === undefined) continue;
      const { target } = resolved;
      sends.push(
        new Promise((done) => {
          this.#socket(resolved.family as 4 | 6).send(packet, target.port, resolved.address, (error) => {
            if (error && !this.#closed) this.#problem(target, reasonOf(error));
            done();
          });
        }),
      );
    }
    return Promise.all(sends).then(() => undefined);
  }

  #socket(family: 4 | 6): Socket {
    const existing = this.#sockets[family];
    if (existing) return existing;
    const socket = createSocket(family === 6 ? 'udp6' : 'udp4');
    // A send error also arrives here on some systems; never an unhandled 'error' event.
    socket.on('error', (error) => this.log.warn('osc socket problem', { reason: reasonOf(error) }));
    // A console reached by broadcast (`--osc-send 10.0.0.255:9001`, a panel on every tablet): the system refuses a
    // send to a broadcast address (EACCES) unless the socket says it may. Sends made while it binds wait for it.
    if (family === 4) {
      socket.bind(0, () => {
        try {
          socket.setBroadcast(true);
        } catch (error) {
          this.log.warn('osc broadcast not allowed', { reason: reasonOf(error) });
        }
      });
    }
    socket.unref();
    this.#sockets[family] = socket;
    return socket;
  }

  #problem(target: OscTarget, reason: string): void {
    const said = this.#problems.note(`${target.host}:${target.port}`);
    if (said) this.log.warn('osc target not reached', { target: `${target.host}:${target.port}`, reason, times: said.since });
  }
}
