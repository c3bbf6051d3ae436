import { AbortedError } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import { NodeWork, reportFailure } from '../src/shared/input.js';
import type { Node, NodeMessage } from '../src/shared/node-red.js';

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

describe('reportFailure (hardening)', () => {
  /** Node-RED's cloneMessage takes req and res off the msg, then throws on what it cannot clone. */
  const failingRouting = (msg: NodeMessage) => () => {
    delete msg.req;
    delete msg.res;
    throw new TypeError('Method get TypedArray.prototype.length called on incompatible receiver');
  };

  it('gives Catch nodes the msg as it was, req and res included, when Node-RED cannot route it', () => {
    const res = { marker: 'response' };
    const msg: NodeMessage = { payload: 'cue', res, req: {}, hasOwnProperty: 'shadowing' };
    Object.defineProperty(msg, 'unreadable', { enumerable: true, get: () => { throw new Error('no'); } });
    const reported: [unknown, NodeMessage | undefined][] = [];
    const node = { error: (error: unknown, copy?: NodeMessage) => reported.push([error, copy]) } as unknown as Node<never>;
    const failure = new Error('refused');
    reportFailure(node, failingRouting(msg), failure, msg);
    expect(reported).toHaveLength(1);
    expect(reported[0]?.[0]).toBe(failure);
    expect(reported[0]?.[1]).toEqual({ payload: 'cue', res, req: {} });
  });

  it('logs the error when even the copy cannot be routed', () => {
    const logged: unknown[] = [];
    const node = {
      error: (error: unknown, copy?: NodeMessage) => {
        if (copy) throw new Error('still not routable');
        logged.push(error);
      },
    } as unknown as Node<never>;
    reportFailure(node, () => { throw new Error('routing'); }, new Error('refused'), { payload: 1 });
    expect(logged).toHaveLength(1);
  });
});
