import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { decode, encode } from 'node-osc';

/** Debian's liblo-tools: OSC clients no one here wrote. The OSC e2e tests skip with this reason where missing. */
export const LIBLO_MISSING = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v oscsend && command -v oscdump'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'oscsend/oscdump are not installed: `apt-get install -y --no-install-recommends liblo-tools` (.ci/run installs it) to run the OSC tests';
  }
})();

/** A free UDP port on loopback (asked of the kernel, then let go for the process that listens on it). */
export async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

export interface DumpedMessage {
  address: string;
  types: string;
  /** The values as oscdump prints them: numbers as numbers, strings without their quotes. */
  values: (string | number)[];
  at: number;
}

/** `oscdump` listening on a port: every message it prints, parsed. */
export class OscDump {
  readonly messages: DumpedMessage[] = [];
  readonly #child: ChildProcess;

  private constructor(readonly port: number) {
    // oscdump 0.31 takes a port or a URL, and reads a URL's host as a multicast group: it can only be given the
    // port, and so listens on every interface, on a free port, for the one test file.
    this.#child = spawn('oscdump', ['-L', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let partial = '';
    this.#child.stdout?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const match = /^\S+ (\/\S*) ?(\S*) ?(.*)$/.exec(line);
        if (!match) continue;
        const values = [...(match[3] ?? '').matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((value) => (value[1] !== undefined ? value[1] : Number(value[2])));
        this.messages.push({ address: match[1] ?? '', types: match[2] ?? '', values, at: Date.now() });
      }
    });
  }

  static async start(): Promise<OscDump> {
    const dump = new OscDump(await freeUdpPort());
    // oscdump says nothing when it is ready: give it a moment to bind before anything is sent to it.
    await delay(300);
    return dump;
  }

  async waitFor(match: (message: DumpedMessage) => boolean, timeoutMs: number, since = 0, what = 'a matching message'): Promise<DumpedMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.slice(since).find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`oscdump did not print ${what} within ${timeoutMs} ms; last lines:\n${this.messages.slice(-15).map((message) => `${message.address} ${message.types} ${message.values.join(' ')}`).join('\n')}`);
      await delay(25);
    }
  }

  async close(): Promise<void> {
    if (this.#child.exitCode !== null) return;
    this.#child.kill('SIGTERM');
    await once(this.#child, 'exit');
  }
}

/** `oscsend host port address [types values...]`, resolved when it has sent. */
export function oscsend(port: number, address: string, types = '', ...values: string[]): void {
  execFileSync('oscsend', ['127.0.0.1', String(port), address, ...(types ? [types, ...values] : [])], { stdio: 'ignore', timeout: 5000 });
}

export interface OscReply {
  address: string;
  args: unknown[];
}

/** A sender of our own (bound to `address`), for bundles and raw packets, keeping every answer it gets. */
export class OscPeer {
  readonly replies: OscReply[] = [];

  private constructor(readonly socket: Socket) {
    socket.on('message', (packet) => {
      try {
        const decoded = decode(packet) as { address: string; args: { value: unknown }[] };
        this.replies.push({ address: decoded.address, args: decoded.args.map((arg) => arg.value) });
      } catch {
        // Not an answer of the bridge's.
      }
    });
  }

  static async bind(address = '127.0.0.1'): Promise<OscPeer> {
    const socket = createSocket('udp4');
    socket.bind(0, address);
    await once(socket, 'listening');
    return new OscPeer(socket);
  }

  send(port: number, packet: Buffer | object): Promise<void> {
    const bytes = Buffer.isBuffer(packet) ? packet : encode(packet);
    return new Promise((resolve, reject) => this.socket.send(bytes, port, '127.0.0.1', (error) => (error ? reject(error) : resolve())));
  }

  async waitForReply(match: (reply: OscReply) => boolean, timeoutMs: number, since = 0): Promise<OscReply> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.replies.slice(since).find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching answer within ${timeoutMs} ms; answers: ${JSON.stringify(this.replies.slice(since))}`);
      await delay(25);
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }
}

/** An OSC message with typed arguments, as node-osc encodes it. */
export const message = (address: string, ...args: { type: string; value: unknown }[]) => ({ oscType: 'message', address, args });
/** A bundle with a timetag in ms since the epoch (0: immediately). */
export const bundle = (atMs: number, ...elements: object[]) => ({ oscType: 'bundle', timetag: atMs / 1000, elements });
