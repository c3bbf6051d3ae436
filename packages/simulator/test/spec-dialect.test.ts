import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../src/index.js';

/** Where the documents' dialect differs from r34, and what both share: 0-based sections, the API description. */
describe('the spec dialect', () => {
  let sim: Simulator;
  const get = async (path: string) => {
    const response = await fetch(sim.mediaServer.url + path);
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    sim = await startSimulator({ dialect: 'spec', port: 0, drivePort: 0 });
  });
  afterAll(async () => {
    await sim.close();
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
    const speed = await fetch(`${sim.mediaServer.url}/api/session/transport/speed`, { method: 'POST', body: '{"transports":[]}' });
    expect(speed.status).toBe(404);
    expect((await get('/api/ledstrip')).status).toBe(404);
    expect((await get('/api/chassis/stats')).status).toBe(200);
    expect(sim.smc).toBeUndefined();
    const paths = Object.keys((await get('/docs/session/d3api.swagger.json')).json['paths'] as object);
    expect(paths).toContain('/api/session/looks');
    expect(paths).not.toContain('/api/session/transport/speed');
  });
});
