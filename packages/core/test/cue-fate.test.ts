import { afterEach, describe, expect, it, vi } from 'vitest';
import * as core from '../src/index.js';
import {
  AbortedError,
  AuthError,
  ClosedError,
  ConfirmationRequiredError,
  NotDescribedError,
  NotEnabledError,
  ConflictError,
  ConnectionError,
  CueLane,
  cueFateOf,
  DriveNotFoundError,
  HardwareTargetError,
  HttpError,
  InvalidInputError,
  LateAnswerError,
  LiveFrameRefusedError,
  LiveUpdateError,
  MediaServer,
  NotFoundError,
  NotOfferedError,
  StagelinkError,
  StalledAnswerError,
  StatusError,
  TimeoutError,
  UnexpectedAnswerError,
  type CueFate,
} from '../src/index.js';
import { json, ok, silence, startScriptedServer } from './support/scripted-server.js';

const context = { method: 'POST', url: 'http://10.0.0.5/api/session/transport/play' };

/** One error of every class core exports, with the fate of a cue that failed with it. */
const EVERY_ERROR: Record<string, [Error, CueFate][]> = {
  StagelinkError: [[new StagelinkError('something else'), 'unknown']],
  HttpError: [[new HttpError('HTTP 500', 500, undefined, context), 'refused']],
  NotFoundError: [[new NotFoundError('HTTP 404', 404, undefined, context), 'refused']],
  DriveNotFoundError: [[new DriveNotFoundError('no such version', 'version', undefined, context), 'refused']],
  NotOfferedError: [[new NotOfferedError('not offered', 405, undefined, context), 'refused']],
  AuthError: [[new AuthError('login required', 401, undefined, context), 'refused']],
  ConflictError: [[new ConflictError('busy', 409, undefined, context), 'refused']],
  StatusError: [[new StatusError('refused', 4000, [], context, 'no such track'), 'refused']],
  TimeoutError: [
    [new TimeoutError('no answer', 4000, context), 'unknown'],
    [new TimeoutError('waited too long behind other cues', 3000, undefined, { mayHaveReachedServer: false }), 'not-sent'],
  ],
  StalledAnswerError: [[new StalledAnswerError('stalled', 4000, context), 'unknown']],
  LateAnswerError: [
    [new LateAnswerError('landed', 'landed', 4000, context), 'landed-late'],
    [new LateAnswerError('unknown', 'unknown', 4000, context), 'unknown'],
  ],
  ConnectionError: [
    [new ConnectionError('ECONNRESET', context), 'unknown'],
    [new ConnectionError('ECONNREFUSED', context, { mayHaveReachedServer: false }), 'link-down'],
  ],
  AbortedError: [
    [new AbortedError('aborted', context), 'unknown'],
    [new AbortedError('cancelled before it was sent', context, { mayHaveReachedServer: false }), 'not-sent'],
  ],
  ConfirmationRequiredError: [[new ConfirmationRequiredError('confirm it'), 'not-sent']],
  NotEnabledError: [[new NotEnabledError('python is off'), 'not-sent']],
  NotDescribedError: [[new NotDescribedError("this director's API 2.0.3 offers no `transport/speed`"), 'not-sent']],
  InvalidInputError: [[new InvalidInputError('choose a transport'), 'not-sent']],
  HardwareTargetError: [[new HardwareTargetError('name the machine'), 'not-sent']],
  UnexpectedAnswerError: [[new UnexpectedAnswerError('no envelope', context), 'unknown']],
  ClosedError: [[new ClosedError('closed'), 'not-sent']],
  LiveUpdateError: [[new LiveUpdateError('refused subscription'), 'unknown']],
  LiveFrameRefusedError: [[new LiveFrameRefusedError('a subscribe lost as "Invalid JSON" time after time'), 'unknown']],
};

describe('cueFateOf', () => {
  it('is ok without an error', () => {
    expect(cueFateOf()).toBe('ok');
    expect(cueFateOf(undefined)).toBe('ok');
  });

  it('gives every error class core exports its fate, so a new one is given its fate on purpose', () => {
    const exported = Object.entries(core)
      .filter(([, value]) => typeof value === 'function' && (value === StagelinkError || (value as { prototype?: unknown }).prototype instanceof StagelinkError))
      .map(([name]) => name)
      .sort();
    expect(Object.keys(EVERY_ERROR).sort()).toEqual(exported);
    for (const [name, cases] of Object.entries(EVERY_ERROR)) {
      for (const [error, fate] of cases) expect({ name, message: error.message, fate: cueFateOf(error) }).toEqual({ name, message: error.message, fate });
    }
  });

  it('reads the code and the flag, not the class: an error of another bundle of core is told the same', () => {
    expect(cueFateOf({ name: 'TimeoutError', code: 'STAGELINK_ERR_TIMEOUT', mayHaveReachedServer: false })).toBe('not-sent');
    expect(cueFateOf({ code: 'STAGELINK_ERR_CONNECTION', mayHaveReachedServer: false })).toBe('link-down');
    expect(cueFateOf({ code: 'STAGELINK_ERR_LATE_LANDED' })).toBe('landed-late');
    expect(cueFateOf({ code: 'STAGELINK_ERR_REFUSED' })).toBe('refused');
  });

  it('says unknown for anything that does not prove where the cue went', () => {
    expect(cueFateOf(new Error('a bug'))).toBe('unknown');
    expect(cueFateOf(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe('unknown');
    expect(cueFateOf('a string')).toBe('unknown');
    expect(cueFateOf(null)).toBe('unknown');
    // A timeout without the flag may have reached the server.
    expect(cueFateOf({ code: 'STAGELINK_ERR_TIMEOUT' })).toBe('unknown');
  });
});

describe('cueFateOf on what a client throws', () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });

  const fateOf = (promise: Promise<unknown>): Promise<CueFate> => promise.then(
    () => cueFateOf(),
    (error: unknown) => cueFateOf(error),
  );

  it('tells a cue the server refused, one that went through, and one whose server is gone', async () => {
    const server = await startScriptedServer([json(200, { status: ok }), json(200, { status: { code: 4000, message: 'Unknown transport "side"', details: [] } })]);
    const ms = new MediaServer({ host: server.url, timeoutMs: 10_000, retries: 0 });
    open.push(server, ms);
    expect(await fateOf(ms.transport.play({ name: 'main' }))).toBe('ok');
    expect(await fateOf(ms.transport.play({ name: 'side' }))).toBe('refused');
    expect(await fateOf(ms.transport.play({}))).toBe('not-sent');
    await server.close();
    // A read that finds the server gone takes the link down; the cue after it is refused unsent.
    await expect(ms.transport.transports()).rejects.toBeInstanceOf(ConnectionError);
    expect(ms.linkDown).toBeDefined();
    expect(await fateOf(ms.transport.play({ name: 'main' }))).toBe('link-down');
  });

  it('tells a cue whose answer never came, and a cue the lane refused after it waited too long behind it', async () => {
    const server = await startScriptedServer([silence, silence]);
    const ms = new MediaServer({ host: server.url, timeoutMs: 300, retries: 0 });
    open.push(server, ms);
    const lane = new CueLane({ maxWaitMs: 100, name: server.url });
    const [late, waited] = await Promise.all([fateOf(lane.send(() => ms.transport.stop({ name: 'main' }))), fateOf(lane.send(() => ms.transport.play({ name: 'main' })))]);
    // The re-read of the transports got no answer either: whether the stop played, nobody can tell.
    expect(late).toBe('unknown');
    expect(waited).toBe('not-sent');
  });

  it('tells a cue aborted while it waited in the lane from one aborted while the server held its answer', async () => {
    const server = await startScriptedServer([silence, json(200, { status: ok })]);
    const ms = new MediaServer({ host: server.url, timeoutMs: 10_000, retries: 0 });
    open.push(server, ms);
    const lane = new CueLane({ maxWaitMs: 10_000, name: server.url });
    const inFlight = new AbortController();
    const queued = new AbortController();
    const held = fateOf(lane.send(() => ms.transport.stop({ name: 'main' }, { signal: inFlight.signal })));
    const waiting = fateOf(lane.send(() => ms.transport.play({ name: 'main' }), { signal: queued.signal }));
    await vi.waitFor(() => expect(server.received).toHaveLength(1), { timeout: 5000 });
    queued.abort();
    inFlight.abort();
    expect(await waiting).toBe('not-sent');
    expect(await held).toBe('unknown');
  });
});
