import { afterEach, describe, expect, it } from 'vitest';
import { InvalidInputError, MediaServer, readTransportFields, StatusError, transportFieldsOf } from '../src/index.js';
import { json, ok, startScriptedServer } from './support/scripted-server.js';

let cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanup.map((close) => close()));
  cleanup = [];
});

async function serverAnswering(...answers: ReturnType<typeof json>[]) {
  const server = await startScriptedServer(answers);
  const ms = new MediaServer({ host: server.url, timeoutMs: 2000, retries: 0 });
  cleanup.push(() => ms.close(), () => server.close());
  return { server, ms, sent: () => server.received.map((request) => ({ path: request.url, body: JSON.parse(request.body) as unknown })) };
}

const refused = json(200, { status: { code: 5, message: 'Track "Finale" was not found.', details: [] } });

describe('transport commands that act on the current track', () => {
  it('goes to the given track first, keeping the playmode, then to the section with the cue playmode', async () => {
    const { ms, sent } = await serverAnswering();
    await ms.transport.send('gotosection', { name: 'main' }, { track: { name: 'Finale' }, section: '3', playmode: 'play' });
    expect(sent()).toEqual([
      { path: '/api/session/transport/gototrack', body: { transports: [{ transport: { name: 'main' }, track: { name: 'Finale' } }] } },
      { path: '/api/session/transport/gotosection', body: { transports: [{ transport: { name: 'main' }, section: '3', playmode: 'Play' }] } },
    ]);
  });

  it('goes to a note of the given track the same way', async () => {
    const { ms, sent } = await serverAnswering();
    await ms.transport.send('gotonote', [{ name: 'main' }], { track: { uid: '42' }, note: 'Lights cue 12' });
    expect(sent().map((request) => request.path)).toEqual(['/api/session/transport/gototrack', '/api/session/transport/gotonote']);
    expect(sent()[0]?.body).toEqual({ transports: [{ transport: { name: 'main' }, track: { uid: '42' } }] });
  });

  it('sends nothing more when the track step is refused, and says it was that step', async () => {
    const { ms, sent } = await serverAnswering(refused);
    const failure = ms.transport.send('gotosection', { name: 'main' }, { track: { name: 'Finale' }, section: '3' });
    await expect(failure).rejects.toBeInstanceOf(StatusError);
    await expect(failure).rejects.toThrow(/^Going to track "Finale" failed, so section 3 was not sent: .*not found/);
    expect(sent()).toHaveLength(1);
  });

  it('says the track was reached when the section step is refused', async () => {
    const { ms } = await serverAnswering(json(200, { status: ok }), refused);
    const failure = ms.transport.send('gotonote', { name: 'main' }, { track: { name: 'Finale' }, note: 'Q1' });
    await expect(failure).rejects.toBeInstanceOf(StatusError);
    await expect(failure).rejects.toThrow(/^Went to track "Finale", but going to note "Q1" failed: /);
  });

  it('acts on the current track when no track is given, and checks the section and track before sending anything', async () => {
    const { ms, sent } = await serverAnswering();
    await ms.transport.send('gotosection', { name: 'main' }, { section: '2' });
    expect(sent().map((request) => request.path)).toEqual(['/api/session/transport/gotosection']);
    await expect(ms.transport.send('gotosection', { name: 'main' }, { track: { name: 'Finale' } })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(ms.transport.send('gotonote', { name: 'main' }, { track: {}, note: 'Q1' })).rejects.toThrow(/^track needs a uid or a name/);
    expect(sent()).toHaveLength(1);
  });

  it('checks the section, note and playmode before going to the track', async () => {
    const { ms, sent } = await serverAnswering();
    const finale = { name: 'Finale' };
    await expect(ms.transport.send('gotosection', { name: 'main' }, { track: finale, section: '3', playmode: 5 as unknown as string })).rejects.toThrow(/playmode/);
    await expect(ms.transport.send('gotonote', { name: 'main' }, { track: finale, note: {} as unknown as string })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(ms.transport.send('gotosection', [{ name: 'main' }, {}], { track: finale, section: '3' })).rejects.toThrow(/transport/);
    expect(sent()).toEqual([]);
  });

  it('sends other commands as they are, track or not', async () => {
    const { ms, sent } = await serverAnswering();
    await ms.transport.send('gototrack', { name: 'main' }, { track: { name: 'Finale' }, playmode: 'stop' });
    await ms.transport.send('gotonextsection', { name: 'main' }, { track: { name: 'Finale' } });
    expect(sent().map((request) => request.path)).toEqual(['/api/session/transport/gototrack', '/api/session/transport/gotonextsection']);
  });
});

describe('the words of shipping directors', () => {
  it('sends playmodes given in any case or in the documents\' words as the enum names, and leaves an omitted one out', async () => {
    const { ms, sent } = await serverAnswering();
    const words = ['play', 'PLAY', 'loop section', 'Loop', 'play to end of section', 'playSection', 'stop', 'NotSet'];
    for (const playmode of words) await ms.transport.gotoNextTrack({ transport: { name: 'main' }, playmode });
    await ms.transport.gotoNextTrack({ transport: { name: 'main' } });
    const playmodes = sent().map((request) => (request.body as { transports: { playmode?: string }[] }).transports[0]?.playmode);
    expect(playmodes).toEqual(['Play', 'Play', 'Loop', 'Loop', 'PlaySection', 'PlaySection', 'Stop', 'NotSet', undefined]);
  });

  it('refuses a word that is no playmode before sending', async () => {
    const { ms, sent } = await serverAnswering();
    await expect(ms.transport.gotoTrack({ transport: { name: 'main' }, track: { name: 'A' }, playmode: 'fast forward' })).rejects.toThrow(/not a playmode: use one of Play/);
    expect(sent()).toEqual([]);
  });

  it('refuses a volume or brightness outside 0 to 1 before sending, which a shipping director would answer as done', async () => {
    const { ms, sent } = await serverAnswering();
    await expect(ms.transport.setVolume({ transport: { name: 'main' }, volume: 50 })).rejects.toThrow(/volume must be from 0 to 1 \(got 50\)/);
    await expect(ms.transport.send('setBrightness', { name: 'main' }, { brightness: -0.1 })).rejects.toBeInstanceOf(InvalidInputError);
    expect(sent()).toEqual([]);
    await ms.transport.setVolume({ transport: { name: 'main' }, volume: 1 });
    await ms.transport.setBrightness({ transport: { name: 'main' }, brightness: 0 });
    expect(sent()).toHaveLength(2);
  });

  it('takes a section by its 0-based index, as a number or decimal text, and refuses a name pointing to gotoNote', async () => {
    const { ms, sent } = await serverAnswering();
    await ms.transport.gotoSection({ transport: { name: 'main' }, section: 1 });
    await ms.transport.send('gotosection', { name: 'main' }, { section: ' 0 ' });
    expect(sent().map((request) => request.body)).toEqual([
      { transports: [{ transport: { name: 'main' }, section: '1' }] },
      { transports: [{ transport: { name: 'main' }, section: '0' }] },
    ]);
    await expect(ms.transport.gotoSection({ transport: { name: 'main' }, section: 'Chorus' })).rejects.toThrow(/not the name "Chorus": to jump to a name, use gotonote/);
    await expect(ms.transport.gotoSection({ transport: { name: 'main' }, section: -1 })).rejects.toBeInstanceOf(InvalidInputError);
    expect(sent()).toHaveLength(2);
  });

  it('keeps the message short when the input is a whole file', async () => {
    const { ms } = await serverAnswering();
    const failure = ms.transport.gotoSection({ transport: { name: 'main' }, section: 'x'.repeat(1_000_000) });
    await expect(failure).rejects.toBeInstanceOf(InvalidInputError);
    expect(((await failure.catch((error: unknown) => error)) as Error).message.length).toBeLessThan(300);
  });

  it('sends tag types as the enum in any case and refuses others', async () => {
    const { ms, sent } = await serverAnswering();
    for (const type of ['tc', 'Midi', 'CUE', 'tagtype_unknown']) await ms.transport.gotoTag({ transport: { name: 'main' }, type, value: '1' });
    expect(sent().map((request) => (request.body as { transports: { type: string }[] }).transports[0]?.type)).toEqual(['TC', 'MIDI', 'CUE', 'TagType_Unknown']);
    await expect(ms.transport.gotoTag({ transport: { name: 'main' }, type: 'smpte', value: '1' })).rejects.toThrow(/TC, MIDI, CUE/);
  });

  it('sends a speed through transport/speed', async () => {
    const { ms, sent } = await serverAnswering();
    await ms.transport.send('speed', { name: 'main' }, { speed: 0.5 });
    expect(sent()).toEqual([{ path: '/api/session/transport/speed', body: { transports: [{ transport: { name: 'main' }, speed: 0.5 }] } }]);
  });

  it('reads playmodes of either vocabulary into the enum names, and section indexes as numbers', async () => {
    const transport = (playmode: string) => ({ uid: '1', name: 'main', playmode, engaged: true });
    const { ms } = await serverAnswering(
      json(200, { status: ok, result: [transport('Loop'), transport('play to end of section'), transport('stop'), transport('Rewind')] }),
      json(200, { status: ok, transports: [transport('loop section')], multitransports: [] }),
      json(200, { status: ok, result: { uid: '1', name: 'A', annotations: { sections: [{ time: 0, index: 0 }, { time: 5, index: '1' }], notes: [], tags: [] } } }),
    );
    expect((await ms.transport.activeTransport()).map((t) => t.playmode)).toEqual(['Loop', 'PlaySection', 'Stop', 'Unknown']);
    expect((await ms.transport.transports()).transports[0]?.playmode).toBe('Loop');
    expect((await ms.transport.annotations({ name: 'A' })).annotations.sections.map((section) => section.index)).toEqual([0, 1]);
  });

  it('tells which playmodes mean playing', async () => {
    const { isPlaying } = await import('../src/index.js');
    expect(['Play', 'PlaySection', 'Loop', 'play', 'loop section', 'play to end of section'].every((playmode) => isPlaying({ playmode }))).toBe(true);
    expect(['Stop', 'stop', 'NotSet', 'Unknown', ''].some((playmode) => isPlaying({ playmode }))).toBe(false);
    expect(isPlaying(undefined)).toBe(false);
  });
});

describe('refusals and commands a build lacks', () => {
  it('carries the reason from status.details when status.message is empty', async () => {
    const reason = "Transport speed control is disabled. Enable the 'enableTransportSpeedControl' option to use it.";
    const { ms } = await serverAnswering(json(200, { status: { code: 1000, message: '', details: [{ message: reason, uid: '9' }] } }));
    const failure = ms.transport.setSpeed({ transport: { name: 'main' }, speed: 2 });
    await expect(failure).rejects.toBeInstanceOf(StatusError);
    await expect(failure).rejects.toThrow(`refused by the server: ${reason} (status code 1000)`);
    await expect(failure).rejects.toMatchObject({ reason, statusCode: 1000 });
  });

  it('falls back to a detail\'s value, the documents\' shape', async () => {
    const { ms } = await serverAnswering(json(200, { status: { code: 3, message: '', details: [{ type_url: 't', value: 'bad section' }] } }));
    await expect(ms.transport.play({ name: 'main' })).rejects.toThrow(/refused by the server: bad section \(status code 3\)/);
  });

  it('reports 404 and 405 on a session path as a command this build does not offer, sent once', async () => {
    const { NotOfferedError } = await import('../src/index.js');
    const { ms, server } = await serverAnswering(json(404, { message: 'Not Found' }), json(405, {}));
    const failure = ms.transport.setSpeed({ transport: { name: 'main' }, speed: 1 });
    await expect(failure).rejects.toBeInstanceOf(NotOfferedError);
    await expect(failure).rejects.toThrow(/does not offer transport.setSpeed/);
    await expect(ms.looks.list()).rejects.toBeInstanceOf(NotOfferedError);
    expect(server.received).toHaveLength(2);
  });
});

describe('ms.transport.send', () => {
  it('takes a command by its client method name, in TypeScript too', async () => {
    const { ms, sent } = await serverAnswering();
    await ms.transport.send('gotoTrack', { name: 'main' }, { track: { name: 'Intro' } });
    await ms.transport.send('setVolume', { name: 'main' }, { volume: 0.5 });
    expect(sent().map(({ path }) => path)).toEqual(['/api/session/transport/gototrack', '/api/session/transport/volume']);
  });
});

describe('readTransportFields', () => {
  const settings = (values: Record<string, unknown>) => (field: string) => values[field];

  it('reads the fields a command takes, as their kinds, and nothing else', () => {
    const kinds: Record<string, string> = {};
    const reading = readTransportFields('gototrack', (field, kind) => {
      kinds[field] = kind;
      return { track: { name: 'Intro' }, playmode: 'Loop', volume: 0.5 }[field as string];
    });
    expect(reading).toEqual({ fields: { track: { name: 'Intro' }, playmode: 'Loop' } });
    expect(kinds).toEqual({ track: 'ref', playmode: 'text' });
  });

  it('leaves out an optional field that is not set', () => {
    expect(readTransportFields('gotonexttrack', settings({}))).toEqual({ fields: {} });
  });

  it('names the first required field that is not set', () => {
    expect(readTransportFields('gototag', settings({ tagType: 'cue' }))).toEqual({ missing: 'tagValue' });
    expect(readTransportFields('volume', settings({ brightness: 1 }))).toEqual({ missing: 'volume' });
  });

  it('lists the fields a command needs before those it may carry', () => {
    expect(transportFieldsOf('gotosection')).toEqual([
      { field: 'section', kind: 'index', required: true },
      { field: 'playmode', kind: 'text', required: false },
      { field: 'track', kind: 'ref', required: false },
    ]);
    expect(transportFieldsOf('play')).toEqual([]);
  });
});
