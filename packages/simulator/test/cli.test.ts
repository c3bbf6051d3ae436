import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/** The built CLI, as `stagelink-sim` runs it (`pnpm test` builds first). */
const CLI = fileURLToPath(new URL('../dist/cli.mjs', import.meta.url));

interface ReadyLine {
  event: string;
  mediaServer: string;
  drive: string;
  driveToken: string;
  demoDrive: { driveId: string; contentId: string; singleVersionContentId: string; emptyContentId: string };
  dialect: string;
  smc?: { url: string; username: string; password: string };
  machines?: { hostname: string; role: string; url: string; smcUrl?: string }[];
}

interface RunningCli {
  ready: ReadyLine;
  /** Every stdout line after the ready line so far. */
  readonly logLines: string[];
  /** Sends SIGTERM and answers the exit code and signal. */
  stop(): Promise<[number | null, NodeJS.Signals | null]>;
}

const started: ChildProcess[] = [];

afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/**
 * Spawns the CLI on free ports and waits for its first stdout line; fails with its stderr if it exits first. In
 * the documents' dialect unless the flags say otherwise, whatever STAGELINK_SIM_DIALECT says.
 */
async function startCli(...flags: string[]): Promise<RunningCli> {
  const dialect = flags.includes('--dialect') ? [] : ['--dialect', 'spec'];
  const child = spawn(process.execPath, [CLI, '--port', '0', '--drive-port', '0', ...dialect, ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  // 'close' comes after stdout has been read to its end, unlike 'exit'.
  const exited = once(child, 'close') as Promise<[number | null, NodeJS.Signals | null]>;
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const lines: string[] = [];
  const firstLine = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      if (lines.length === 1) resolve(line);
    });
    exited.then(([code]) => reject(new Error(`stagelink-sim exited with ${code} before printing a line: ${stderr}`)), reject);
  });
  const ready = JSON.parse(await firstLine) as ReadyLine;
  return {
    ready,
    get logLines() {
      return lines.slice(1);
    },
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

async function control(url: string, action: Record<string, unknown>): Promise<Response> {
  return fetch(`${url}/__sim/control`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(action) });
}

async function versionCount(ready: ReadyLine, contentId: string): Promise<unknown> {
  const { driveId } = ready.demoDrive;
  const response = await fetch(`${ready.drive}/v1/drives/${driveId}/content/${contentId}/versions`, { headers: { authorization: `Token ${ready.driveToken}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { meta: { total: unknown } }).meta.total;
}

describe('stagelink-sim', () => {
  it('prints a ready line whose addresses, token and demo ids work, takes faults, and stops on SIGTERM', async () => {
    const cli = await startCli();
    const { ready } = cli;
    expect(ready).toMatchObject({
      event: 'ready',
      mediaServer: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) as unknown,
      drive: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) as unknown,
      driveToken: expect.stringMatching(/.{16,}/) as unknown,
      demoDrive: {
        driveId: expect.any(String) as unknown,
        contentId: expect.any(String) as unknown,
        singleVersionContentId: expect.any(String) as unknown,
        emptyContentId: expect.any(String) as unknown,
      },
    });
    expect(ready.mediaServer).not.toMatch(/:0$/);

    const health = await fetch(`${ready.mediaServer}/api/session/status/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: { code: 0 }, result: expect.any(Array) as unknown });

    expect(await versionCount(ready, ready.demoDrive.contentId)).toBe(40);
    expect(await versionCount(ready, ready.demoDrive.singleVersionContentId)).toBe(1);
    expect(await versionCount(ready, ready.demoDrive.emptyContentId)).toBe(0);

    expect((await control(ready.mediaServer, { action: 'failNext', status: 503, count: 1 })).status).toBe(200);
    expect((await fetch(`${ready.mediaServer}/api/session/status/health`)).status).toBe(503);
    expect((await fetch(`${ready.mediaServer}/api/session/status/health`)).status).toBe(200);

    expect(await cli.stop()).toEqual([0, null]);
    expect(cli.logLines.map((line) => (JSON.parse(line) as { event: string }).event)).toEqual(expect.arrayContaining(['stopping', 'stopped']));
  });

  it('lists the machines of the session scenario, each answering on its loopback alias', async () => {
    const cli = await startCli('--scenario', 'session');
    const { ready } = cli;
    expect(ready.machines?.map(({ hostname, role }) => [hostname, role])).toEqual([
      ['127.0.0.2', 'director'],
      ['127.0.0.3', 'actor'],
      ['127.0.0.4', 'actor'],
      ['127.0.0.5', 'understudy'],
    ]);
    expect(ready.mediaServer).toBe(ready.machines?.[0]?.url);
    for (const machine of ready.machines ?? []) {
      const session = await fetch(`${machine.url}/api/session/status/session`);
      expect(((await session.json()) as { result: { director: { hostname: string } } }).result.director.hostname, machine.hostname).toBe('127.0.0.2');
    }
    expect(await cli.stop()).toEqual([0, null]);
  });

  it('gives r34 machine names, their loopback addresses and each machine\'s SMC in the ready line of an r34 session', async () => {
    const cli = await startCli('--scenario', 'session', '--dialect', 'r34');
    const { ready } = cli;
    expect(ready.dialect).toBe('r34');
    expect(ready.machines?.map(({ hostname, url }) => [hostname, new URL(url).hostname])).toEqual([
      ['DIRECTOR01', '127.0.0.2'],
      ['ACTOR01', '127.0.0.3'],
      ['ACTOR02', '127.0.0.4'],
      ['UNDERSTUDY01', '127.0.0.5'],
    ]);
    expect(ready.smc).toEqual({ url: ready.machines?.[0]?.smcUrl, username: 'admin', password: 'stagelink-demo' });
    for (const machine of ready.machines ?? []) {
      expect(new URL(machine.smcUrl ?? '').hostname).toBe(new URL(machine.url).hostname);
      expect((await fetch(`${machine.smcUrl}/api/chassis/stats`)).status).toBe(200);
    }
    expect(await cli.stop()).toEqual([0, null]);
  });

  it('drops back-to-back live frames in r34 by default, and as long a window as --back-to-back-ms says', async () => {
    const windowOf = async (cli: RunningCli) => ((await (await control(cli.ready.mediaServer, { action: 'status' })).json()) as { live: { faults: { backToBackMs: number } } }).live.faults.backToBackMs;
    const [r34, off, spec] = await Promise.all([startCli('--dialect', 'r34'), startCli('--dialect', 'r34', '--back-to-back-ms', '0'), startCli('--back-to-back-ms', '35')]);
    expect([await windowOf(r34), await windowOf(off), await windowOf(spec)]).toEqual([20, 0, 35]);
    await Promise.all([r34.stop(), off.stop(), spec.stop()]);
  });

  it('gives the management controller and its account in the ready line of an r34 demo', async () => {
    const cli = await startCli('--dialect', 'r34');
    expect(cli.ready).toMatchObject({ dialect: 'r34', smc: { url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) as unknown, username: 'admin', password: 'stagelink-demo' } });
    expect(cli.ready.machines).toBeUndefined();
    expect(await cli.stop()).toEqual([0, null]);
  });
});
