import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';

const RETRY_MS = 50;
/** Never wait forever on a holder that hangs: after this the caller goes ahead without the turn. */
const GIVE_UP_MS = 120_000;
/** A turn made this long ago whose owner was never written: its maker died in between. */
const UNWRITTEN_OWNER_MS = 5000;

/**
 * A turn one process (or worker) at a time on this machine holds, re-entrantly within itself: a folder made
 * atomically, naming its owner. A turn whose owner died is taken over.
 */
export class MachineTurn {
  readonly #me = `${process.pid}:${threadId}`;
  #held = 0;

  constructor(private readonly dir: string) {}

  /** Waits for the turn; resolves with the function that gives it back. */
  async take(): Promise<() => Promise<void>> {
    if (this.#held === 0 && !(await this.#acquire())) return () => Promise.resolve();
    this.#held++;
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      this.#held--;
      if (this.#held === 0) await rm(this.dir, { recursive: true, force: true });
    };
  }

  async #acquire(): Promise<boolean> {
    const giveUpAt = Date.now() + GIVE_UP_MS;
    while (Date.now() < giveUpAt) {
      try {
        await mkdir(this.dir);
        await writeFile(join(this.dir, 'owner'), this.#me);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        if (await this.#ownerDied()) await rm(this.dir, { recursive: true, force: true });
        else await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
    return false;
  }

  async #ownerDied(): Promise<boolean> {
    const owner = await readFile(join(this.dir, 'owner'), 'utf8').catch(() => '');
    if (owner === '') {
      const made = await stat(this.dir).catch(() => undefined);
      return made !== undefined && Date.now() - made.mtimeMs > UNWRITTEN_OWNER_MS;
    }
    try {
      process.kill(Number(owner.split(':')[0]), 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ESRCH';
    }
  }
}

const loopbackTurn = new MachineTurn(join(tmpdir(), 'stagelink-loopback-dnssd.turn'));

/**
 * Every simulator that announces on loopback is heard by every DNS-SD look on loopback, so test suites running side
 * by side (turbo starts several at once) would find each other's sessions. A suite that announces, or that holds
 * the mDNS port, takes this machine's turn first; resolves with the function that gives it back.
 */
export function takeLoopbackDnssdTurn(): Promise<() => Promise<void>> {
  return loopbackTurn.take();
}
