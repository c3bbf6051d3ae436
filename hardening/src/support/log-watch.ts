/**
 * The output of a process under test: watched for secrets as it arrives (a secret split across two chunks is
 * still found) and kept, up to a limit, for failure messages.
 */
export class LogWatch {
  readonly #secrets = new Set<string>();
  readonly #found = new Map<string, string>();
  #kept = '';
  #carry = '';
  /** Characters pushed so far, kept or not. */
  #total = 0;

  constructor(private readonly keepChars = 2_000_000) {}

  /** From now on, every occurrence of `secret` is recorded with the line it was on. */
  watchFor(secret: string): void {
    if (secret.length > 0) this.#secrets.add(secret);
  }

  push(text: string): void {
    const window = this.#carry + text;
    for (const secret of this.#secrets) {
      const at = window.indexOf(secret);
      if (at !== -1 && !this.#found.has(secret)) this.#found.set(secret, lineAround(window, at));
    }
    const longest = Math.max(0, ...[...this.#secrets].map((secret) => secret.length));
    this.#carry = window.slice(-longest);
    this.#kept = (this.#kept + text).slice(-this.keepChars);
    this.#total += text.length;
  }

  /** A position in the output, for `textSince`. */
  mark(): number {
    return this.#total;
  }

  /** What was printed after `mark` (as far as it is still kept). */
  textSince(mark: number): string {
    const fresh = this.#total - mark;
    return fresh <= 0 ? '' : this.#kept.slice(-fresh);
  }

  /** The secrets seen so far, each with the line it appeared on (secret masked). */
  leaks(except: readonly string[] = []): string[] {
    return [...this.#found].filter(([secret]) => !except.includes(secret)).map(([secret, line]) => line.split(secret).join('<token>'));
  }

  /** True once `secret` (watched) has appeared. */
  seen(secret: string): boolean {
    return this.#found.has(secret);
  }

  text(): string {
    return this.#kept;
  }

  tail(chars: number): string {
    return this.#kept.slice(-chars);
  }

  /** Lines that match `pattern`, for counting warnings and errors. */
  lines(pattern: RegExp): string[] {
    return this.#kept.split('\n').filter((line) => pattern.test(line));
  }
}

function lineAround(text: string, at: number): string {
  const start = text.lastIndexOf('\n', at) + 1;
  const end = text.indexOf('\n', at);
  return text.slice(start, end === -1 ? undefined : end).slice(0, 300);
}
