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
    "await deck.waitFor(() => found, 'the alert', 5000);",
    "await deck.waitForImage('play', (svg) => true, 'the face');",
    "await watcher.waitFor(on('result'), 10_000, 0, 'the result');",
    'const exit = await Promise.race([exited(), new Promise((resolve) => setTimeout(() => resolve(1), 5000))]);',
    'const within = (p, ms) => Promise.race([p, delay(ms)]); await within(next, 2000);',
    'await new Promise((resolve) => setTimeout(resolve, 300));',
    'expect(Math.max(...batches)).toBeLessThanOrEqual(2);',
    'const client = new MediaServer({ host, timeoutMs: 300 });',
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
    { code: "await deck.waitForLatestImage('play', (svg) => true, 'the sending face', 700);", errors: [error] },
    { code: "await deck.waitFor(() => found, 'the alert', 300);", errors: [error] },
    { code: "await watcher.waitFor(on('state'), 1000, since, 'the new state');", errors: [error] },
    { code: 'await vi.waitFor(() => expect(a).toBe(1), 500);', errors: [error] },
    { code: "expect(await Promise.race([call, delay(500).then(() => 'late')])).toBe(1);", errors: [error] },
    { code: "await Promise.race([call, new Promise((_, reject) => setTimeout(() => reject(new Error('slow')), 300))]);", errors: [error] },
    {
      code: "const within = (p, ms) => Promise.race([p, new Promise((r) => setTimeout(() => r('pending'), ms))]); expect(await within(next, 300)).toBe(1);",
      errors: [error],
    },
    { code: 'async function settledWithin(call, ms) { return Promise.race([call, delay(ms)]); } await settledWithin(call, 1000);', errors: [error] },
  ],
});
