import { afterEach, describe, expect, it } from 'vitest';
import { MediaServer, UnexpectedAnswerError } from '../src/index.js';
import { json, ok, startScriptedServer } from './support/scripted-server.js';

let cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanup.map((close) => close()));
  cleanup = [];
});

async function serverAnswering(body: Record<string, unknown>) {
  const server = await startScriptedServer([], json(200, { status: ok, ...body }));
  const ms = new MediaServer({ host: server.url, timeoutMs: 2000, retries: 0 });
  cleanup.push(() => ms.close(), () => server.close());
  return ms;
}

const machine = (hostname: string) => ({ uid: '1', name: hostname, hostname, type: 'actor', guiMode: 'full', guiVisible: true });

describe('answers that lack what their results promise', () => {
  it.each([
    ['session', { result: null }, (ms: MediaServer) => ms.status.session(), 'result is null, not an object'],
    ['session', { result: { isRunningSolo: false, actors: [null], understudies: [] } }, (ms: MediaServer) => ms.status.session(), 'result.actors[0] is null, not an object'],
    ['session', { result: { actors: [], understudies: [] } }, (ms: MediaServer) => ms.status.session(), 'result.isRunningSolo is missing, not a boolean'],
    ['health', { result: [{ machine: machine('a'), runningAsMachine: machine('a'), status: {} }] }, (ms: MediaServer) => ms.status.health(), 'result[0].status.states is missing, not a list'],
    ['transports', { transports: [{ name: 5, playmode: 'play' }], multitransports: [] }, (ms: MediaServer) => ms.transport.transports(), 'transports[0].name is number 5, not a string'],
    ['transports', { transports: [] }, (ms: MediaServer) => ms.transport.transports(), 'multitransports is missing, not a list'],
    ['tracks', { result: { name: 'Intro' } }, (ms: MediaServer) => ms.transport.tracks(), 'result is an object, not a list'],
    ['annotations', { result: { uid: '1', name: 'Intro' } }, (ms: MediaServer) => ms.transport.annotations({ name: 'Intro' }), 'result.annotations is missing, not an object'],
    [
      'annotations',
      { result: { uid: '1', name: 'Intro', annotations: { sections: [{ index: '1', time: '12.5' }], notes: [], tags: [] } } },
      (ms: MediaServer) => ms.transport.annotations({ name: 'Intro' }),
      'result.annotations.sections[0].time is string "12.5", not a time in seconds',
    ],
  ])('refuses a %s answer where %j, naming the field', async (_name, body, ask, problem) => {
    const ms = await serverAnswering(body);
    const failure = ask(ms);
    await expect(failure).rejects.toBeInstanceOf(UnexpectedAnswerError);
    await expect(failure).rejects.toThrow(`answered, but not in the shape the API specifies: ${problem}. Check that this address is a media server`);
  });

  it('reads a transport reported without its current track or set list as one with none, never as a crash later', async () => {
    const bare = { uid: '7', name: 'bare', playmode: 'Stop' };
    const emptied = { uid: '8', name: 'emptied', playmode: 'Play', currentTrack: null, setList: { uid: '3', name: 'Show' } };
    const { transports } = await (await serverAnswering({ transports: [bare, emptied], multitransports: [] })).transport.transports();
    expect(transports[0]).toEqual({ ...bare, currentTrack: { uid: '', name: '' }, setList: { uid: '', name: '', tracks: [] } });
    expect(transports[1]).toEqual({ ...emptied, currentTrack: { uid: '', name: '' }, setList: { uid: '3', name: 'Show', tracks: [] } });
  });

  it('returns answers in the shape as they are, extra fields and a solo machine without a director included', async () => {
    const solo = { isRunningSolo: true, isDirectorDedicated: false, actors: [], understudies: [], firmware: 'x' };
    await expect((await serverAnswering({ result: solo })).status.session()).resolves.toEqual(solo);
    const annotations = { uid: '1', name: 'Intro', annotations: { sections: [{ time: 0, index: '1' }], notes: [], tags: [] } };
    await expect((await serverAnswering({ result: annotations })).transport.annotations({ name: 'Intro' })).resolves.toEqual({
      ...annotations,
      annotations: { ...annotations.annotations, sections: [{ time: 0, index: 1 }] },
    });
  });
});
