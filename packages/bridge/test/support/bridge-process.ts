import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';

const CLI = fileURLToPath(new URL('../../dist/cli.mjs', import.meta.url));

/** The built `stagelink-bridge` as its own process, as systemd would run it; its stderr kept for the checks. */
export class BridgeProcess {
  readonly lines: string[] = [];
  readonly #child: ChildProcess;
  #exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  readonly #exited: Promise<unknown>;

  constructor(args: string[]) {
    this.#child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.#exited = once(this.#child, 'exit').then(([code, signal]) => {
      this.#exit = { code: code as number | null, signal: signal as NodeJS.Signals | null };
    });
    let partial = '';
    this.#child.stderr?.on('data', (chunk: Buffer) => {
      const text = partial + chunk.toString('utf8');
      const parts = text.split('\n');
      partial = parts.pop() ?? '';
      this.lines.push(...parts);
    });
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** How it ended, undefined while it runs. */
  get exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.#exit;
  }

  /** How it ended, once it has; rejects when it still runs after `timeoutMs`. */
  async exited(timeoutMs = 5000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const deadline = Date.now() + timeoutMs;
    while (!this.#exit) {
      if (Date.now() > deadline) throw new Error(`The bridge still runs after ${timeoutMs} ms:\n${this.lines.join('\n')}`);
      await delay(20);
    }
    return this.#exit;
  }

  async waitForLine(match: RegExp, timeoutMs = 5000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const line = this.lines.find((candidate) => match.test(candidate));
      if (line) return line;
      if (this.#exit) throw new Error(`The bridge exited (${JSON.stringify(this.#exit)}) before logging ${String(match)}:\n${this.lines.join('\n')}`);
      if (Date.now() > deadline) throw new Error(`The bridge did not log ${String(match)} within ${timeoutMs} ms:\n${this.lines.join('\n')}`);
      await delay(20);
    }
  }

  signal(signal: NodeJS.Signals): void {
    if (!this.#exit) this.#child.kill(signal);
  }

  /** Sends the signal and waits for the process to end. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.#exit) return;
    this.#child.kill(signal);
    await this.#exited;
  }
}
