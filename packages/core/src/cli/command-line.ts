/** Resolves on the first SIGINT or SIGTERM; a second one while the tool is closing exits at once. */
export function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const onSignal = (): void => {
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(143));
      resolve();
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
}

/** Runs a command-line tool's `main` and exits with the code it resolves to; a failure is printed under the tool's name. */
export function runCommandLine(name: string, main: (args: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
