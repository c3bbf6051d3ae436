import { AbortedError } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import { NodeWork } from '../src/shared/input.js';

/** A task that runs until its signal aborts, as a request in flight does. */
const untilAborted = (signal: AbortSignal) =>
  new Promise<void>((_resolve, reject) => signal.addEventListener('abort', () => reject(new AbortedError('aborted by the caller')), { once: true }));

describe('NodeWork (what close handlers do with work in flight)', () => {
  it('lets work that finishes within the grace period finish, and reports nothing', async () => {
    const work = new NodeWork();
    const errors: Error[] = [];
    let finished = false;
    void work.track(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      finished = true;
    }, (error) => errors.push(error));
    await work.close(5000);
    expect(finished).toBe(true);
    expect(errors).toEqual([]);
    expect(work.signal.aborted).toBe(true);
  });

  it('aborts work still running after the grace period and says the outcome is unknown', async () => {
    const work = new NodeWork();
    const errors: Error[] = [];
    void work.track(() => untilAborted(work.signal), (error) => errors.push(error));
    await work.close(10);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(AbortedError);
    expect(errors[0]?.message).toMatch(/Stopped by a deploy or shutdown .* may or may not have been carried out/);
  });

  it('never rejects, even when the error handler throws', async () => {
    const work = new NodeWork();
    const errors: Error[] = [];
    await expect(work.track(() => Promise.reject(new Error('boom')), (error) => errors.push(error))).resolves.toBeUndefined();
    await expect(
      work.track(
        () => Promise.reject(new Error('again')),
        () => {
          throw new Error('a failing error handler must not become an unhandled rejection');
        },
      ),
    ).resolves.toBeUndefined();
    expect(errors.map((error) => error.message)).toEqual(['boom']);
  });
});
