import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthError, MediaServer, NotOfferedError, SmcClient, powerFaultOf, readPowerStatus } from '../src/index.js';
import { json, ok, startScriptedServer } from './support/scripted-server.js';

const open: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

const machine = (hostname: string) => ({ uid: '1', name: hostname.toLowerCase(), hostname, type: 'director', guiMode: 'normal', guiVisible: true });
const sessionNaming = (director: string) => ({ status: ok, result: { isRunningSolo: false, isDirectorDedicated: false, director: machine(director), actors: [], understudies: [] } });

/** A director that names itself by a machine name, answering every session path. */
function directorNamed(hostname: string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const body = req.url?.startsWith('/api/session/status/session') ? sessionNaming(hostname) : { status: ok, result: [] };
    json(200, body)(req, res, '');
  };
}

function capturingLogger() {
  const warnings: string[] = [];
  return { warnings, logger: { warn: (line: string) => warnings.push(line), info: () => undefined, error: () => undefined, debug: () => undefined } };
}

describe('following a director whose machine name does not resolve', () => {
  it('keeps using the address given when that machine is the director, and says so once', async () => {
    const director = await startScriptedServer([], directorNamed('DIRECTOR01'));
    open.push(director);
    const { warnings, logger } = capturingLogger();
    const ms = new MediaServer({ host: director.url, followDirector: true, timeoutMs: 3000, logger });
    open.push(ms);
    await ms.transport.play({ name: 'main' });
    await ms.transport.stop({ name: 'main' });
    expect(ms.origin).toBe(director.url);
    expect(ms.director).toMatchObject({ hostname: 'DIRECTOR01', url: director.url });
    expect(director.received.filter((r) => r.url === '/api/session/transport/stop')).toHaveLength(1);
    expect(warnings.filter((line) => line.includes('DIRECTOR01 cannot be reached by its name'))).toHaveLength(1);
  });

  it('goes to the address a hosts map gives for the director, in any case', async () => {
    const director = await startScriptedServer([], directorNamed('DIRECTOR01'));
    const actor = await startScriptedServer([], directorNamed('DIRECTOR01'));
    open.push(director, actor);
    const ms = new MediaServer({ host: actor.url, followDirector: true, hosts: { director01: new URL(director.url).host }, timeoutMs: 3000 });
    open.push(ms);
    await ms.transport.play({ name: 'main' });
    expect(ms.origin).toBe(director.url);
    expect(director.received.some((r) => r.url === '/api/session/transport/play')).toBe(true);
    expect(actor.received.some((r) => r.url === '/api/session/transport/play')).toBe(false);
  });
});

describe('the hardware family on a management address', () => {
  it('sends HTTP Basic credentials to the SMC, and never shows them in an error', async () => {
    const smc = await startScriptedServer([json(401, { message: 'Login required' })]);
    open.push(smc);
    const client = new SmcClient({ host: smc.url, username: 'admin', password: 's3cret-pw' });
    open.push(client);
    const failure = client.chassis.powerOn().catch((error: unknown) => error);
    const error = await failure;
    expect(error).toBeInstanceOf(AuthError);
    expect(JSON.stringify(error) + String((error as Error).message) + String((error as Error).stack)).not.toMatch(/s3cret|YWRtaW46czNjcmV0/);
    expect((error as Error).message).toMatch(/SMC account/);
  });

  it('routes a media server\'s hardware calls to its smc address', async () => {
    const session = await startScriptedServer([]);
    const smc = await startScriptedServer([], json(200, { ledMode: 'static', ledR: 1, ledG: 2, ledB: 3 }));
    open.push(session, smc);
    const ms = new MediaServer({ host: session.url, smc: { host: smc.url, username: 'admin', password: 'pw' } });
    open.push(ms);
    await expect(ms.hardware.ledStrip.get()).resolves.toEqual({ ledMode: 'static', ledR: 1, ledG: 2, ledB: 3 });
    await ms.hardware.ledStrip.set({ ledMode: 'rainbow', ledR: 0, ledG: 0, ledB: 255 });
    await expect(ms.hardware.ledStrip.set({ ledMode: 'disco' as never, ledR: 0, ledG: 0, ledB: 0 })).rejects.toThrow(/static, colour_id, rainbow/);
    await expect(ms.hardware.oled.notify({ title: 't', message: 'm', priority: 3 })).rejects.toThrow(/priority must be 0, 1 or 2/);
    expect(session.received).toEqual([]);
    expect(smc.received.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/ledstrip', 'POST /api/ledstrip']);
  });

  it('reads power flags from the flags object or the documents\' message', () => {
    const flags = { 'System Power': 'on', 'Power Overload': false, 'Main Power Fault': 'false', 'Power Control Fault': 'true' };
    expect(readPowerStatus(flags)).toEqual({ systemPower: 'on', powerOverload: false, mainPowerFault: false, powerControlFault: true });
    expect(readPowerStatus({ message: 'Chassis Power is on' })).toEqual({ message: 'Chassis Power is on', systemPower: 'on' });
  });

  it('tells a power fault, none, or unknown when the answer reports no fault flag', () => {
    expect(powerFaultOf(readPowerStatus({ 'System Power': 'on', 'Power Overload': false, 'Main Power Fault': 'true', 'Power Control Fault': false }))).toBe(true);
    expect(powerFaultOf(readPowerStatus({ 'System Power': 'on', 'Power Overload': false, 'Main Power Fault': 'false', 'Power Control Fault': false }))).toBe(false);
    expect(powerFaultOf(readPowerStatus({ message: 'Chassis Power is on' }))).toBeUndefined();
  });
});

describe('the build\'s own API description', () => {
  it('tells which catalogue commands this build offers', async () => {
    const { endpoints } = await import('../src/index.js');
    const description = { swagger: '2.0', info: { title: 'd3 API', version: '2.0.3' }, paths: { '/api/session/transport/play': { post: {} }, '/api/session/transport/speed': { post: {} } } };
    const server = await startScriptedServer([json(200, description), json(404, {})]);
    open.push(server);
    const ms = new MediaServer({ host: server.url });
    open.push(ms);
    const api = await ms.apiDescription();
    expect(api).toMatchObject({ title: 'd3 API', version: '2.0.3', operations: ['POST /api/session/transport/play', 'POST /api/session/transport/speed'] });
    expect([endpoints.play, endpoints.speed, endpoints.looks, endpoints.oledNotify].map((endpoint) => api.offers(endpoint))).toEqual([true, true, false, true]);
    await expect(ms.apiDescription()).rejects.toBeInstanceOf(NotOfferedError);
    expect(server.received[0]?.url).toBe('/docs/session/d3api.swagger.json');
  });
});
