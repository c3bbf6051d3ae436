import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../src/index.js';

/** The session scenario as shipping r34 machines: Windows machine names on loopback aliases, an SMC each. */
let sim: Simulator;

async function send(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(base + path, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.startsWith('application/json') === true;
  return { status: response.status, text, json: (isJson && text ? JSON.parse(text) : undefined) as Record<string, unknown> };
}

const machine = (hostname: string) => {
  const found = sim.machines().find((each) => each.hostname === hostname);
  if (!found) throw new Error(`the session has ${hostname}`);
  return found;
};
// Through a machine no test stops: a machine stopping cuts the control request it is answering.
const control = (action: Record<string, unknown>) => send(machine('UNDERSTUDY01').url, 'POST', '/__sim/control', action);
const directorOf = async (base: string) =>
  ((await send(base, 'GET', '/api/session/status/session')).json['result'] as { director: { hostname: string; name: string } }).director;

beforeAll(async () => {
  sim = await startSimulator({ scenario: 'session', dialect: 'r34', port: 0, drivePort: 0 });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  for (const { hostname, running } of sim.machines()) if (!running) await control({ action: 'startMachine', hostname });
  if (sim.state.machines.local.hostname !== 'DIRECTOR01') await control({ action: 'moveDirector', to: 'DIRECTOR01' });
  await control({ action: 'reset' });
});

describe('the r34 session scenario', () => {
  it('reports Windows machine names while each machine listens on its loopback alias with an SMC of its own', () => {
    const port = sim.mediaServer.port;
    expect(sim.machines().map(({ hostname, role, url }) => ({ hostname, role, url }))).toEqual([
      { hostname: 'DIRECTOR01', role: 'director', url: `http://127.0.0.2:${port}` },
      { hostname: 'ACTOR01', role: 'actor', url: `http://127.0.0.3:${port}` },
      { hostname: 'ACTOR02', role: 'actor', url: `http://127.0.0.4:${port}` },
      { hostname: 'UNDERSTUDY01', role: 'understudy', url: `http://127.0.0.5:${port}` },
    ]);
    for (const [index, each] of sim.machines().entries()) expect(each.smcUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.${index + 2}:\\d+$`));
    expect(new Set(sim.machines().map((each) => each.smcUrl)).size).toBe(4);
    expect(sim.mediaServer.url).toBe(`http://127.0.0.2:${port}`);
    expect(sim.smc).toEqual({ url: machine('DIRECTOR01').smcUrl, username: 'admin', password: 'stagelink-demo' });
  });

  it('names the director by its hostname on every machine, and refuses session commands off the director in r34\'s shape', async () => {
    for (const each of sim.machines()) expect(await directorOf(each.url)).toEqual(expect.objectContaining({ hostname: 'DIRECTOR01', name: 'Director' }));
    const refused = await send(machine('ACTOR01').url, 'POST', '/api/session/transport/play', { transports: [{ name: 'main' }] });
    expect(refused.status).toBe(200);
    expect(refused.json).toEqual({ status: { code: 4000, message: '', details: [{ message: expect.stringContaining('the director, DIRECTOR01') as unknown }] } });
    const health = (await send(sim.mediaServer.url, 'GET', '/api/session/status/health')).json['result'] as { machine: { hostname: string } }[];
    expect(health.map((entry) => entry.machine.hostname)).toEqual(['DIRECTOR01', 'ACTOR01', 'ACTOR02', 'UNDERSTUDY01']);
  });

  it('moves the director, stops and starts machines by hostname in any case', async () => {
    await control({ action: 'moveDirector', to: 'actor02' });
    expect(sim.mediaServer.url).toBe(machine('ACTOR02').url);
    expect(await directorOf(machine('DIRECTOR01').url)).toMatchObject({ hostname: 'ACTOR02' });
    expect(sim.smc?.url).toBe(machine('ACTOR02').smcUrl);

    await control({ action: 'stopMachine', hostname: 'Actor02' });
    expect(machine('ACTOR02').running).toBe(false);
    expect(sim.state.machines.local.hostname).not.toBe('ACTOR02');
    await expect(fetch(`${machine('ACTOR02').url}/api/session/status/session`)).rejects.toThrow();
    // The management controller is out of band: it still answers while the machine's server is stopped.
    expect((await send(machine('ACTOR02').smcUrl ?? '', 'GET', '/api/chassis/stats')).status).toBe(200);
    await control({ action: 'startMachine', hostname: 'actor02' });
    expect(machine('ACTOR02').running).toBe(true);

    const unknown = await control({ action: 'moveDirector', to: 'ACTOR09' });
    expect(unknown.status).toBe(400);
    for (const hostname of ['ACTOR09', 'DIRECTOR01', 'ACTOR01', 'ACTOR02', 'UNDERSTUDY01']) expect(JSON.stringify(unknown.json)).toContain(hostname);
  });

  it('serves the hardware family only on each machine\'s SMC, writes with the demo account', async () => {
    const actor = machine('ACTOR01');
    const smcUrl = actor.smcUrl ?? '';
    const basic = `Basic ${Buffer.from('admin:stagelink-demo').toString('base64')}`;
    expect((await send(actor.url, 'GET', '/api/chassis/power/status')).status).toBe(404);
    expect((await send(smcUrl, 'GET', '/api/chassis/power/status')).json).toEqual({
      'System Power': 'on',
      'Power Overload': false,
      'Main Power Fault': false,
      'Power Control Fault': false,
    });
    const notice = { priority: 0, title: 'FOH', message: 'Doors' };
    expect(await send(smcUrl, 'POST', '/api/oled/notification', notice)).toMatchObject({ status: 401, json: { message: 'Login required' } });
    expect((await send(smcUrl, 'POST', '/api/oled/notification', notice, { authorization: basic })).status).toBe(201);
    expect((await send(smcUrl, 'GET', '/api/session/status/session')).status).toBe(404);
  });
});
