import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { createServer, connect as tcpConnect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/** Debian's broker; the tests skip with this reason where it is missing. */
export const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((path) => existsSync(path));
export const MOSQUITTO_MISSING = MOSQUITTO
  ? undefined
  : 'mosquitto is not installed: `apt-get install -y mosquitto mosquitto-clients` (.ci/run installs it) to run the bridge tests against a real broker';

export interface BrokerAccount {
  username: string;
  password: string;
}

export interface Mosquitto {
  url: string;
  port: number;
  /** The broker's process id while it runs (to read its CPU and memory). */
  readonly pid: number | undefined;
  /** Stops the broker (SIGTERM): retained messages are gone, as `persistence false` says. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real Mosquitto for one test file: loopback only, a free port, a generated config, no persistence, and either
 * anonymous access or a password file (and then anonymous access refused).
 */
export interface MosquittoOptions {
  /** Accounts in a password file; anonymous access is then refused. */
  accounts?: BrokerAccount[];
  /** An ACL file's text (with accounts). */
  acl?: string;
  /** `set_tcp_nodelay`: every message written at once rather than coalesced (default false, Mosquitto's own). */
  tcpNoDelay?: boolean;
  /** PEM files for a TLS listener (the URL is then `mqtts://`). */
  tls?: { cafile: string; certfile: string; keyfile: string };
}

export async function startMosquitto(options: MosquittoOptions = {}): Promise<Mosquitto> {
  if (!MOSQUITTO) throw new Error(MOSQUITTO_MISSING);
  const dir = await mkdtemp(join(tmpdir(), 'stagelink-mosquitto-'));
  const port = await freePort();
  // Run as root, Mosquitto drops to the `mosquitto` user, which cannot read this test's private files: stay as we are.
  const lines = [`listener ${port} 127.0.0.1`, 'persistence false', 'log_dest stderr', 'log_type error', 'log_type warning', `set_tcp_nodelay ${options.tcpNoDelay === true}`, `user ${userInfo().username}`];
  if (options.accounts?.length) {
    const passwords = join(dir, 'passwords');
    await writeFile(passwords, '', { mode: 0o600 });
    for (const { username, password } of options.accounts) execFileSync('mosquitto_passwd', ['-b', passwords, username, password], { stdio: 'ignore' });
    lines.push('allow_anonymous false', `password_file ${passwords}`);
    if (options.acl !== undefined) {
      const acl = join(dir, 'acl');
      await writeFile(acl, options.acl, { mode: 0o600 });
      lines.push(`acl_file ${acl}`);
    }
  } else {
    lines.push('allow_anonymous true');
  }
  if (options.tls) lines.push(`cafile ${options.tls.cafile}`, `certfile ${options.tls.certfile}`, `keyfile ${options.tls.keyfile}`);
  const config = join(dir, 'mosquitto.conf');
  await writeFile(config, `${lines.join('\n')}\n`);
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    child = spawn(MOSQUITTO, ['-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.resume();
    await waitForPort(port);
  };
  const stop = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url: `${options.tls ? 'mqtts' : 'mqtt'}://127.0.0.1:${port}`,
    port,
    get pid() {
      return child?.pid;
    },
    stop,
    start,
    close: async () => {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

async function waitForPort(port: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = tcpConnect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await delay(50);
  }
  throw new Error(`Mosquitto did not listen on port ${port} within 5 s.`);
}
