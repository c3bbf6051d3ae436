import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isLoopback, parseStartArgs, START_USAGE } from '../lib/start-options.mjs';

const START_SCRIPT = fileURLToPath(new URL('../start.mjs', import.meta.url));

/** start.mjs run to its end, for arguments it refuses or answers without starting anything. */
function runToEnd(args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [START_SCRIPT, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

describe('pnpm start options', () => {
  it('listens on loopback on the usual ports unless told otherwise', () => {
    expect(parseStartArgs([])).toEqual({ help: false, listen: '127.0.0.1', port: 1880, simPort: 8080, drivePort: 8081, dataDir: undefined, dialect: undefined });
  });

  it('takes a listen address, ports, a data folder and a dialect, after the separator pnpm hands on', () => {
    expect(parseStartArgs(['--', '--listen', '0.0.0.0', '--port', '0', '--sim-port=9000', '--data-dir', '/tmp/run', '--dialect', 'r34'])).toMatchObject({
      listen: '0.0.0.0',
      port: 0,
      simPort: 9000,
      drivePort: 8081,
      dataDir: '/tmp/run',
      dialect: 'r34',
    });
  });

  it('refuses a listen address that is not one, and a port out of range, naming the flag', () => {
    expect(() => parseStartArgs(['--listen', 'desk.local'])).toThrow(/--listen takes an IP address/);
    expect(() => parseStartArgs(['--port', '70000'])).toThrow(/--port takes a port from 0 to 65535/);
  });

  it('tells loopback from an address a network reaches', () => {
    expect(['127.0.0.1', '127.0.1.1', '::1', 'localhost'].filter(isLoopback)).toHaveLength(4);
    expect(['0.0.0.0', '::', '192.168.1.20'].filter(isLoopback)).toEqual([]);
  });

  it('refuses a mistyped flag with its name and the usage, before starting anything', async () => {
    const { code, output } = await runToEnd(['--listn', '0.0.0.0']);
    expect(code).toBe(2);
    expect(output).toMatch(/--listn/);
    expect(output).toContain(START_USAGE);
  });

  it('prints the usage for --help', async () => {
    const { code, output } = await runToEnd(['--help']);
    expect(code).toBe(0);
    expect(output.trim()).toBe(START_USAGE);
  });
});
