import { createHash } from 'node:crypto';
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { BlockList, isIP } from 'node:net';
import { reasonOf } from '@stagelink/core';
import { decode, encode } from 'node-osc';
import type { CommandRequest } from './command-runner.js';
import { failureResult, type CommandResult } from './command-result.js';
import type { BridgeLog } from './log.js';
import { OnceAPeriod } from './once-a-period.js';
import { oscCommandOf, type OscInArg } from './osc-commands.js';
import type { OscListen, OscSubnet } from './options.js';
import { RecentIds } from './recent-ids.js';

/**
 * OSC's timetags count seconds from 1900. node-osc gives them as seconds since 1970: "immediately" (0 s and a
 * fraction of 1) as 0, but an all-zero timetag, which many senders write for "now", as 1900.
 */
const OSC_EPOCH_SECONDS = -2_208_988_800;

/** A timetag that says "now" rather than when the bundle was made: 0, or within the first second of 1900. */
export function isImmediate(timetag: number): boolean {
  return timetag === 0 || timetag < OSC_EPOCH_SECONDS + 1;
}

/** Bundles inside bundles deeper than this are a bad packet: no sender needs them, a crafted packet might. */
const MAX_BUNDLE_DEPTH = 4;

interface DecodedMessage {
  oscType: 'message';
  address: string;
  args: { value: OscInArg }[];
}
interface DecodedBundle {
  oscType: 'bundle';
  /** Seconds since 1970; 0 for OSC's "immediately". */
  timetag: number;
  elements: (DecodedMessage | DecodedBundle)[];
}

export interface OscInCounts {
  /** Packets from senders outside the allow list. */
  refused: number;
  /** Packets that are not OSC, or bundles nested too deep. */
  bad: number;
  /** Copies of a timed bundle already taken. */
  duplicates: number;
  /** Messages to an address that is no command of this bridge. */
  notCommands: number;
  /** Commands handed to the runner (each answered). */
  commands: number;
}

/**
 * OSC commands over UDP. UDP says nothing of who sent a packet beyond an address anyone on the network can use,
 * so only senders in the allow list are heard (none by default), and nothing is answered to others. A message is
 * a command made when it arrived (UDP holds nothing back); a bundle's timetag says when it was made, so a bundle
 * older than the maximum command age is refused, and a copy of a timed bundle already taken is dropped. Packets
 * that are not OSC are counted and said once a minute per sender; none of it can stop the bridge.
 */
export class OscIn {
  readonly counts: OscInCounts = { refused: 0, bad: 0, duplicates: 0, notCommands: 0, commands: 0 };
  readonly #allow = new BlockList();
  readonly #socket: Socket;
  readonly #said = new OnceAPeriod();
  readonly #bundles = new RecentIds<true>(1000);
  #closed = false;

  constructor(
    listen: OscListen,
    allow: readonly OscSubnet[],
    private readonly root: string,
    private readonly submit: (request: CommandRequest, send: (result: CommandResult) => void) => void,
    private readonly transportName: (segment: string) => string,
    private readonly log: BridgeLog,
    private readonly layerSegment: (part: string) => string = (part) => part,
  ) {
    for (const { address, prefix, family } of allow) this.#allow.addSubnet(address, prefix, family);
    this.#socket = createSocket({ type: isIP(listen.address) === 6 ? 'udp6' : 'udp4' });
    this.#socket.on('message', (packet, sender) => {
      try {
        this.#packet(packet, sender);
      } catch (error) {
        // Nothing a packet holds may stop the bridge: what slipped past the checks is one more bad packet.
        this.#bad(sender.address, `could not be read: ${reasonOf(error)}`);
      }
    });
    this.#socket.on('error', (error) => {
      if (!this.#closed) this.log.error('osc not listening', { address: `${listen.address}:${listen.port}`, reason: reasonOf(error), fix: 'choose a free port with --osc-listen' });
    });
    this.#socket.bind(listen.port, listen.address, () => {
      this.log.info('osc listening', { address: `${listen.address}:${listen.port}`, allow: allow.length === 0 ? 'nobody (add --osc-allow)' : allow.map(({ address, prefix }) => `${address}/${prefix}`).join(',') });
    });
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    return new Promise((resolve) => {
      try {
        this.#socket.close(() => resolve());
      } catch {
        resolve();
      }
    });
  }

  #packet(packet: Buffer, sender: RemoteInfo): void {
    if (this.#closed) return;
    const source = sender.address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
    if (!this.#allowed(source)) {
      this.counts.refused++;
      const said = this.#said.note(`refused ${source}`);
      if (said) this.log.warn('osc sender refused', { source, times: said.since, fix: 'add its address to --osc-allow' });
      return;
    }
    let decoded: DecodedMessage | DecodedBundle;
    try {
      decoded = decode(packet) as DecodedMessage | DecodedBundle;
    } catch (error) {
      this.#bad(source, reasonOf(error));
      return;
    }
    const receivedAt = Date.now();
    if (decoded.oscType === 'bundle') {
      if (depthOf(decoded) > MAX_BUNDLE_DEPTH) {
        this.#bad(source, `bundles nested deeper than ${MAX_BUNDLE_DEPTH}`);
        return;
      }
      // An untimed bundle has no identity (a button pressed twice sends the same bytes): only timed ones are copies.
      if (!isImmediate(decoded.timetag)) {
        const key = `${source} ${createHash('sha1').update(packet).digest('base64')}`;
        if (this.#bundles.get(key)) {
          this.counts.duplicates++;
          const said = this.#said.note(`duplicate ${source}`);
          if (said) this.log.warn('osc duplicate bundle dropped', { source, times: said.since });
          return;
        }
        this.#bundles.remember(key, true);
      }
    }
    this.#element(decoded, receivedAt, receivedAt, sender, source);
  }

  #element(element: DecodedMessage | DecodedBundle, sentAt: number, receivedAt: number, sender: RemoteInfo, source: string): void {
    if (element.oscType === 'bundle') {
      const at = isImmediate(element.timetag) ? sentAt : element.timetag * 1000;
      for (const inner of element.elements) this.#element(inner, at, receivedAt, sender, source);
      return;
    }
    const answer = (result: CommandResult): void => this.#answer(sender, result);
    let command;
    try {
      command = oscCommandOf(
        this.root,
        element.address,
        element.args.map((arg) => arg.value),
        this.transportName,
        this.layerSegment,
      );
    } catch (error) {
      answer(failureResult(undefined, error));
      return;
    }
    if (!command) {
      this.counts.notCommands++;
      const said = this.#said.note(`address ${source}`);
      if (said) this.log.warn('osc address is no command', { source, address: element.address.slice(0, 200), times: said.since, expected: `${this.root}/transport/<transport>/<command>` });
      return;
    }
    this.counts.commands++;
    const body = Object.hasOwn(command.body, 'sentAt') ? command.body : { ...command.body, sentAt };
    this.submit({ path: command.path, body, receivedAt, via: 'osc', sender: `osc ${source}` }, answer);
  }

  /** `<root>/result s id, i ok, s error` to the port the command came from. */
  #answer(sender: RemoteInfo, result: CommandResult): void {
    if (this.#closed) return;
    try {
      const packet = encode({
        oscType: 'message',
        address: `${this.root}/result`,
        args: [
          { type: 's', value: result.id ?? '' },
          { type: 'i', value: result.ok ? 1 : 0 },
          { type: 's', value: result.error ?? '' },
        ],
      });
      this.#socket.send(packet, sender.port, sender.address, (error) => {
        if (error && !this.#closed) this.log.warn('osc result not sent', { to: `${sender.address}:${sender.port}`, reason: reasonOf(error) });
      });
    } catch (error) {
      this.log.warn('osc result not sent', { to: `${sender.address}:${sender.port}`, reason: reasonOf(error) });
    }
  }

  #allowed(source: string): boolean {
    const family = isIP(source);
    return family !== 0 && this.#allow.check(source, family === 6 ? 'ipv6' : 'ipv4');
  }

  #bad(source: string, reason: string): void {
    this.counts.bad++;
    const said = this.#said.note(`bad ${source}`);
    if (said) this.log.warn('osc bad packet', { source, reason, times: said.since });
  }
}

function depthOf(element: DecodedMessage | DecodedBundle): number {
  if (element.oscType === 'message') return 0;
  let deepest = 0;
  for (const inner of element.elements) deepest = Math.max(deepest, depthOf(inner));
  return deepest + 1;
}
