import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MachineTurn } from '../src/dnssd/loopback-turn.js';

const newTurn = async () => {
  const dir = join(await mkdtemp(join(tmpdir(), 'turn-test-')), 'turn');
  return { dir, turn: new MachineTurn(dir) };
};

/** A turn held by another live process, until that process ends. */
async function heldByAnotherProcess(dir: string) {
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  await mkdir(dir);
  await writeFile(join(dir, 'owner'), `${holder.pid}:0`);
  return holder;
}

describe('the loopback DNS-SD turn', () => {
  it('is re-entrant within one process and freed when the last holder gives it back', async () => {
    const { turn } = await newTurn();
    const first = await turn.take();
    const second = await turn.take();
    await first();
    await second();
    const again = await turn.take();
    await again();
  });

  it('waits while another live process holds it, and takes it over once that process is gone', async () => {
    const { dir, turn } = await newTurn();
    const holder = await heldByAnotherProcess(dir);
    let taken = false;
    const taking = turn.take().then((release) => ((taken = true), release));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(taken).toBe(false);
    holder.kill();
    const release = await taking;
    expect(taken).toBe(true);
    await release();
  });
});
