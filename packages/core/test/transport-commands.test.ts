import { afterEach, describe, expect, it } from 'vitest';
import { InvalidInputError, MediaServer, StatusError } from '../src/index.js';
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
      { path: '/api/session/transport/gotosection', body: { transports: [{ transport: { name: 'main' }, section: '3', playmode: 'play' }] } },
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
