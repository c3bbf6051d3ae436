import { afterEach, describe, expect, it } from 'vitest';
import { Tally } from '../src/report/tally.js';
import { summaryTable } from '../src/report/table.js';
import { CrashGuard } from '../src/support/crash-guard.js';
import { DELIBERATE } from '../vitest.config.js';

describe('the crash counter of the suite process', () => {
  const crashes = new CrashGuard();
  afterEach(() => crashes.close());

  it('counts an unhandled rejection in the row of the area during which it happened, and fails the run', async () => {
    crashes.install();
    const [quiet] = await crashes.during('quiet', () => Promise.resolve(new Tally('quiet area')));
    const [faulty] = await crashes.during('faulty', () => {
      void Promise.reject(new Error(DELIBERATE));
      return Promise.resolve(new Tally('faulty area').finish());
    });

    expect(quiet?.crashes).toBe(0);
    expect(faulty?.crashes).toBe(1);
    expect(faulty?.failed).toBe(true);
    expect(faulty?.findings.join('\n')).toContain(`unhandled rejection: Error: ${DELIBERATE}`);
    expect(summaryTable([quiet, faulty] as Tally[], 0)).toMatch(/\| faulty area +\| +0 \| +0 \| +0 \| +1 \|/);
    expect(await crashes.outsideAreas()).toBeUndefined();
  });

  it('gives crashes outside any area a row of their own', async () => {
    crashes.install();
    void Promise.reject(new Error(DELIBERATE));
    const outside = await crashes.outsideAreas();
    expect(outside?.crashes).toBe(1);
    expect(outside?.failed).toBe(true);
  });
});
