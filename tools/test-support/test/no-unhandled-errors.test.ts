import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);

it('fails the test during which a timer rejected unhandled, naming it, and passes the others', async () => {
  const outcome = await run('npx', ['vitest', 'run', '--config', 'test/fixtures/vitest.config.ts', '--reporter', 'verbose'], { cwd: `${import.meta.dirname}/..`, env: { ...process.env, NO_COLOR: '1' } }).then(
    () => ({ code: 0, output: '' }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: `${error.stdout}${error.stderr}` }),
  );
  expect(outcome.code).not.toBe(0);
  expect(outcome.output).toMatch(/unhandled rejection during "starts a check on a timer that rejects with nobody to catch it": Error: the periodic check failed/);
  expect(outcome.output).toMatch(/✓ .*does nothing wrong/);
});
