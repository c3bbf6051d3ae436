import { RuleTester } from 'eslint';
import { afterAll, describe, it } from 'vitest';
import rule from '../no-tight-timing.js';

RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;

const tester = new RuleTester({ languageOptions: { ecmaVersion: 2024, sourceType: 'module' } });
const error = { messageId: 'bound' };

tester.run('no-tight-timing', rule, {
  valid: [
    'expect(performance.now() - started).toBeLessThan(2000);',
    'expect(Date.now() - pressedAt, context).toBeLessThan(5000);',
    'expect(x + width).toBeLessThanOrEqual(200);',
    'expect(writes.length).toBeLessThanOrEqual(3);',
    'expect(Math.min(...gapsMs)).toBeGreaterThanOrEqual(440);',
    'await vi.waitFor(() => expect(a).toBe(1), { timeout: 5000 });',
    "await eventually(() => done, 'done', 25_000);",
    "it('waits', async () => {}, 90_000);",
  ],
  invalid: [
    { code: 'expect(Date.now() - pressedAt, context).toBeLessThan(300);', errors: [error] },
    { code: 'expect(performance.now() - closing).toBeLessThan(1000);', errors: [error] },
    { code: 'expect(elapsed).not.toBeLessThanOrEqual(50);', errors: [error] },
    { code: 'expect(reconnectMs).toBeLessThan(1500);', errors: [error] },
    { code: 'await expect.poll(() => n, { timeout: 1000, interval: 20 }).toBeGreaterThan(1);', errors: [error] },
    { code: 'await vi.waitFor(() => expect(a).toBe(1), { timeout: 500 });', errors: [error] },
    { code: "await eventually(() => done, 'done', 300);", errors: [error] },
    { code: "it('is quick', async () => {}, 1000);", errors: [error] },
    { code: "test('is quick', async () => {}, { timeout: 1500 });", errors: [error] },
  ],
});
