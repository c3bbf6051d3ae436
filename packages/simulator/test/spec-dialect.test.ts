import { endpointList } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import { simulatorPerFile } from './support/simulator-per-file.js';

/** Where the documents' dialect differs from r34, and what both share: 0-based sections, the API description. */
describe('the spec dialect', () => {
  const sim = simulatorPerFile({ dialect: 'spec', port: 0, drivePort: 0 });
  const get = async (path: string) => {
    const response = await fetch(sim().mediaServer.url + path);
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
  const post = async (path: string, body: unknown) => {
    const response = await fetch(sim().mediaServer.url + path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    return (await response.json()) as { status: { code: number; message: string } };
  };
  const main = { name: 'main' };
  const playmodeOfMain = async () =>
    ((await get('/api/session/transport/activetransport')).json['result'] as { name: string; playmode: string }[]).find((each) => each.name === 'main')?.playmode;

  it('takes the enum names core sends and its own words, and reports its own words', async () => {
    const track = { name: 'Intro' };
    const words: [string, string][] = [['Play', 'play'], ['PlaySection', 'play to end of section'], ['Loop', 'loop section'], ['Stop', 'stop'], ['loop section', 'loop section'], ['play', 'play']];
    for (const [asked, reported] of words) {
      expect((await post('/api/session/transport/gototrack', { transports: [{ transport: main, track, playmode: asked }] })).status.code, asked).toBe(0);
      expect(await playmodeOfMain()).toBe(reported);
    }
    const refused = await post('/api/session/transport/gototrack', { transports: [{ transport: main, track, playmode: 'fast forward' }] });
    expect(refused.status).toMatchObject({ code: 3, message: expect.stringContaining('fast forward') as unknown });
  });

  it('goes to a section by its 0-based index as text, takes tag types in any case and timecode with : or .', async () => {
    await post('/api/session/transport/gototrack', { transports: [{ transport: main, track: { name: 'Preshow' } }] });
    expect((await post('/api/session/transport/gotosection', { transports: [{ transport: main, section: '0' }] })).status.code).toBe(0);
    expect((await post('/api/session/transport/gotosection', { transports: [{ transport: main, section: '1' }] })).status.code).toBe(0);
    expect(sim().state.transports.positionOf(main).time).toBe(120);
    expect((await post('/api/session/transport/gotosection', { transports: [{ transport: main, section: 'Chorus' }] })).status).toMatchObject({ code: 3 });
    expect((await post('/api/session/transport/gototag', { transports: [{ transport: main, type: 'cue', value: 'Q5', allowGlobalJump: true }] })).status.code).toBe(0);
    for (const timecode of ['10:05:00:00', '10:08:00.15']) {
      expect((await post('/api/session/transport/gototimecode', { transports: [{ transport: main, timecode }] })).status.code, timecode).toBe(0);
    }
    expect(sim().state.transports.positionOf(main)).toMatchObject({ track: { name: 'Act 1' }, time: 0.5 });
  });

  it('reports ok health in the documents\' categories, and an unknown path as a 404 envelope', async () => {
    const health = (await get('/api/session/status/health')).json['result'] as { status: { states: { category: string; severity: string }[] } }[];
    expect(health[0]?.status.states[0]).toMatchObject({ category: 'Connection', severity: 'ok' });
    expect(await get('/api/session/transport/rewind')).toEqual({ status: 404, json: { status: { code: 5, message: expect.stringContaining('rewind') as unknown, details: [] } } });
  });

  it('numbers sections from 0, as text', async () => {
    const { json } = await get('/api/session/transport/annotations?name=Preshow');
    expect((json['result'] as { annotations: { sections: unknown[] } }).annotations.sections).toEqual([
      { time: 0, index: '0' },
      { time: 120, index: '1' },
      { time: 240, index: '2' },
    ]);
  });

  it('has none of the paths only shipping builds have, serves hardware beside the API, and describes itself', async () => {
    const speed = await fetch(`${sim().mediaServer.url}/api/session/transport/speed`, { method: 'POST', body: '{"transports":[]}' });
    expect(speed.status).toBe(404);
    expect((await get('/api/ledstrip')).status).toBe(404);
    expect((await get('/api/chassis/stats')).status).toBe(200);
    expect(sim().smc).toBeUndefined();
    const description = (await get('/docs/session/d3api.swagger.json')).json;
    expect(description).toMatchObject({ swagger: '2.0', info: { title: 'd3 API' } });
    const operations = Object.entries(description['paths'] as Record<string, object>).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} /api/session${path}`));
    const offered = endpointList.filter((endpoint) => endpoint.family === 'session' && !endpoint.beyondSpec);
    expect(operations.sort()).toEqual(offered.map((endpoint) => `${endpoint.method} ${endpoint.path}`).sort());
    expect(operations).toContain('GET /api/session/looks');
    expect(operations).not.toContain('POST /api/session/transport/speed');
  });
});
