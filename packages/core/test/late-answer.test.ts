import { afterEach, describe, expect, it } from 'vitest';
import { LateAnswerError, MediaServer, TimeoutError } from '../src/index.js';
import { askedOf, lateVerdict } from '../src/media-server/late-answer.js';
import type { Transport } from '../src/media-server/types.js';
import { json, ok, silence, startScriptedServer, type Reply } from './support/scripted-server.js';

/** The deadline of calls that are not the late cue under test: generous, since they are answered at once. */
const READ_MS = 10_000;
const track = (name: string) => ({ uid: `uid-${name}`, name });
const transport = (trackName: string, playmode: Transport['playmode']): Transport => ({
  uid: 'uid-main',
  name: 'main',
  engaged: true,
  volume: 1,
  brightness: 1,
  playmode,
  currentTrack: track(trackName),
  receivingTimecode: false,
  setList: { uid: 'uid-set', name: 'set', tracks: [] },
});

describe('whether a late cue landed (lateVerdict)', () => {
  const main = { name: 'main' };
  const toOutro = askedOf('gototrack', [{ transport: main, track: { name: 'Outro' }, playmode: 'Play' }]);

  it('is landed when the transport now shows the track and playmode asked for, and did not before', () => {
    expect(lateVerdict(toOutro, [transport('Intro', 'Stop')], [transport('Outro', 'Play')], 0)).toEqual({
      outcome: 'landed',
      why: 'transport "main" now shows track "Outro", Play, which it did not before',
    });
    expect(lateVerdict(askedOf('stop', [{ uid: 'uid-main' }]), [transport('Intro', 'Play')], [transport('Intro', 'Stop')], 0).outcome).toBe('landed');
  });

  it('is unknown when the transport already showed it: play on a transport that was playing', () => {
    const verdict = lateVerdict(askedOf('play', [main]), [transport('Intro', 'Play')], [transport('Intro', 'Play')], 0);
    expect(verdict).toEqual({ outcome: 'unknown', why: 'transport "main" already showed Play before it was sent' });
  });

  it('is unknown without a reading from before, with another command sent meanwhile, or when the transport does not show it', () => {
    expect(lateVerdict(toOutro, undefined, [transport('Outro', 'Play')], 0).outcome).toBe('unknown');
    expect(lateVerdict(toOutro, [transport('Intro', 'Stop')], [transport('Outro', 'Play')], 1).outcome).toBe('unknown');
    expect(lateVerdict(toOutro, [transport('Intro', 'Stop')], [transport('Outro', 'Stop')], 0).outcome).toBe('unknown');
    expect(lateVerdict(askedOf('play', [{ name: 'side' }]), [transport('Intro', 'Stop')], [transport('Intro', 'Play')], 0).outcome).toBe('unknown');
  });

  it('is unknown for what the transports list cannot show: a section, a time, the next track', () => {
    for (const command of ['gotosection', 'gototime', 'gotonexttrack', 'returntostart', 'volume'] as const) {
      expect(askedOf(command, [{ transport: main }])).toBeUndefined();
      expect(lateVerdict(askedOf(command, [{ transport: main }]), [transport('Intro', 'Stop')], [transport('Outro', 'Play')], 0).outcome).toBe('unknown');
    }
  });

  it('asks for the track only when the cue leaves the play state as it was', () => {
    expect(askedOf('gototrack', [{ transport: main, track: { name: 'Outro' }, playmode: 'NotSet' }])).toEqual([{ transport: main, track: { name: 'Outro' } }]);
  });
});

describe('a transport cue whose answer comes late', () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });

  const transportsAnswer = (trackName: string, playmode: Transport['playmode']): Reply => json(200, { status: ok, transports: [transport(trackName, playmode)], multitransports: [] });

  /**
   * A client with a 300 ms deadline of a server answering `replies` in turn. Only the cue under test is held to
   * it (the silence runs it out); every other call gets READ_MS, so a busy machine does not time out a plain read.
   */
  async function clientOf(replies: Reply[]) {
    const server = await startScriptedServer(replies);
    const ms = new MediaServer({ host: server.url, timeoutMs: 300 });
    open.push(server, ms);
    const posts = () => server.received.filter((request) => request.method === 'POST').map((request) => request.url);
    return { ms, server, posts };
  }

  const readFirst = (ms: MediaServer) => ms.transport.transports({ timeoutMs: READ_MS });
  const goToOutro = (ms: MediaServer) => ms.transport.gotoTrack({ transport: { name: 'main' }, track: { name: 'Outro' }, playmode: 'play' });

  it('is sent once and rejected as landed when a re-read shows the track it asked for, which the transport was not on before', async () => {
    const { ms, posts } = await clientOf([transportsAnswer('Intro', 'Stop'), silence, transportsAnswer('Outro', 'Play')]);
    await readFirst(ms);
    const error = await goToOutro(ms).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LateAnswerError);
    expect(error).toMatchObject({ outcome: 'landed', code: 'STAGELINK_ERR_LATE_LANDED', timeoutMs: 300, method: 'POST' });
    expect((error as Error).message).toMatch(/gototrack got no answer within 300 ms, but it landed: transport "main" now shows track "Outro", Play, which it did not before\. It was not sent again\./);
    expect(posts()).toEqual(['/api/session/transport/gototrack']);
    expect(ms.linkDown).toBeUndefined();
  });

  it('is rejected as unknown when the transport already showed what it asks for: play on a playing transport', async () => {
    const { ms, posts } = await clientOf([transportsAnswer('Intro', 'Play'), silence, transportsAnswer('Intro', 'Play')]);
    await readFirst(ms);
    const error = await ms.transport.play({ name: 'main' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ outcome: 'unknown', code: 'STAGELINK_ERR_LATE_UNKNOWN' });
    expect((error as Error).message).toMatch(/whether it landed is unknown: transport "main" already showed Play before it was sent\. It was not sent again/);
    expect(posts()).toEqual(['/api/session/transport/play']);
  });

  it('is unknown when the client had not read the transports since its own last cue', async () => {
    const { ms, posts } = await clientOf([transportsAnswer('Intro', 'Stop'), json(200, { status: ok }), silence, transportsAnswer('Outro', 'Play')]);
    await readFirst(ms);
    await ms.transport.stop({ name: 'main' }, { timeoutMs: READ_MS });
    const error = await goToOutro(ms).catch((e: unknown) => e);
    expect(error).toMatchObject({ outcome: 'unknown' });
    expect((error as Error).message).toMatch(/no reading of the transports from just before it was sent/);
    expect(posts()).toEqual(['/api/session/transport/stop', '/api/session/transport/gototrack']);
  });

  it('stays a TimeoutError, the machine not answering, when the re-read gets no answer either', async () => {
    const { ms, posts } = await clientOf([transportsAnswer('Intro', 'Stop'), silence, silence, silence, silence]);
    await readFirst(ms);
    const error = await goToOutro(ms).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).not.toBeInstanceOf(LateAnswerError);
    expect(posts()).toEqual(['/api/session/transport/gototrack']);
    expect(ms.linkDown).toBeDefined();
  });
});
