import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ClosedError,
  endpointList,
  endpoints,
  HardwareTargetError,
  InvalidInputError,
  MediaServer,
  type MediaServerOptions,
  parseSmcMap,
} from '../src/index.js';
import { json, ok, startScriptedServer, type ScriptedServer } from './support/scripted-server.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

const hardwareAnswer = json(200, { message: 'ok' });

async function server(fallback = hardwareAnswer): Promise<ScriptedServer> {
  const started = await startScriptedServer([], fallback);
  open.push(started);
  return started;
}

function client(options: MediaServerOptions): MediaServer {
  const ms = new MediaServer({ timeoutMs: 2000, ...options });
  open.push(ms);
  return ms;
}

const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
const paths = (machine: ScriptedServer) => machine.received.map(({ method, url }) => `${method} ${url}`);

/** A director that calls itself `hostname`, as shipping directors do; any other path answers as the hardware family. */
function directorNamed(hostname: string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const machine = { uid: '1', name: hostname.toLowerCase(), hostname, type: 'director', guiMode: 'normal', guiVisible: true };
    const session = { status: ok, result: { isRunningSolo: false, isDirectorDedicated: false, director: machine, actors: [], understudies: [] } };
    json(200, req.url?.startsWith('/api/session/') ? session : { message: 'ok' })(req, res, '');
  };
}

const hardwareWrites = endpointList.filter((spec) => spec.family === 'hardware' && spec.method === 'POST');

describe('hardware writes without a named machine', () => {
  it.each(hardwareWrites.map((spec) => [`${spec.group}.${spec.operation}`, spec] as const))('refuses %s before sending', async (_name, spec) => {
    const machine = await server();
    const ms = client({ host: machine.url });

    const error = await ms.call(spec, { body: {} }, { confirm: true }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(HardwareTargetError);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ code: 'STAGELINK_ERR_HARDWARE_TARGET' });
    expect((error as Error).message).toContain(`${spec.method} ${spec.path}`);
    expect((error as Error).message).toMatch(/hardwareOf/);
    expect(machine.received).toEqual([]);
  });

  it('refuses power, OLED, LED strip and whoami through ms.hardware, and still reads through it', async () => {
    const machine = await server();
    const ms = client({ host: machine.url });

    await expect(ms.hardware.chassis.powerOff({ confirm: true })).rejects.toBeInstanceOf(HardwareTargetError);
    await expect(ms.hardware.chassis.powerOn()).rejects.toBeInstanceOf(HardwareTargetError);
    await expect(ms.hardware.chassis.whoami()).rejects.toBeInstanceOf(HardwareTargetError);
    await expect(ms.hardware.oled.notify({ title: 'FOH', message: 'Doors' })).rejects.toBeInstanceOf(HardwareTargetError);
    await expect(ms.hardware.ledStrip.set({ ledMode: 'static', ledR: 1, ledG: 2, ledB: 3 })).rejects.toBeInstanceOf(HardwareTargetError);
    expect(machine.received).toEqual([]);

    await ms.hardware.chassis.stats();
    expect(paths(machine)).toEqual(['GET /api/chassis/stats']);
  });

  it('never sends a hardware write to the director it follows, which is another machine than the one given', async () => {
    const director = await server(directorNamed('DIRECTOR01'));
    const given = await server(directorNamed('DIRECTOR01'));
    const ms = client({ host: given.url, followDirector: true, hosts: { DIRECTOR01: new URL(director.url).host } });
    await ms.status.session();
    expect(ms.origin).toBe(director.url);

    await expect(ms.hardware.oled.notify({ title: 'FOH', message: 'Doors' })).rejects.toBeInstanceOf(HardwareTargetError);
    await expect(ms.call(endpoints.powerOff, {}, { confirm: true })).rejects.toBeInstanceOf(HardwareTargetError);

    expect(paths(director).filter((line) => !line.includes('/api/session/'))).toEqual([]);
    expect(paths(given).filter((line) => !line.includes('/api/session/'))).toEqual([]);
  });
});

describe('hardwareOf', () => {
  it('sends to the machine a hostname names through hosts, not to the director the client follows', async () => {
    const director = await server(directorNamed('DIRECTOR01'));
    const actor = await server(directorNamed('DIRECTOR01'));
    const ms = client({ host: actor.url, followDirector: true, hosts: { DIRECTOR01: new URL(director.url).host, ACTOR01: new URL(actor.url).host } });
    await ms.status.session();
    expect(ms.origin).toBe(director.url);

    await ms.hardwareOf('actor01').chassis.powerOff({ confirm: true });
    await ms.hardwareOf('ACTOR01').oled.notify({ title: 'FOH', message: 'Doors' });

    expect(paths(actor).filter((line) => !line.includes('/api/session/'))).toEqual(['POST /api/chassis/power/off', 'POST /api/oled/notification']);
    expect(paths(director).filter((line) => !line.includes('/api/session/'))).toEqual([]);
  });

  it('sends to the SMC and account smcs gives a hostname (any case), with HTTP Basic', async () => {
    const api = await server();
    const smc = await server();
    const ms = client({ host: api.url, smcs: { ACTOR01: { host: smc.url, username: 'admin', password: 's3cret' } } });

    await ms.hardwareOf('actor01').ledStrip.set({ ledMode: 'rainbow', ledR: 0, ledG: 0, ledB: 255 });

    expect(api.received).toEqual([]);
    expect(smc.received).toMatchObject([{ method: 'POST', url: '/api/ledstrip', authorization: basic('admin', 's3cret') }]);
  });

  it('sends to an SMC named by its address, with its account', async () => {
    const api = await server();
    const smc = await server();
    const ms = client({ host: api.url });

    const machine = ms.hardwareOf({ host: smc.url, username: 'admin', password: 'pw' });
    await machine.chassis.powerOn();

    expect(machine.host).toBe(smc.url);
    expect(smc.received).toMatchObject([{ method: 'POST', url: '/api/chassis/power/on', authorization: basic('admin', 'pw') }]);
    expect(api.received).toEqual([]);
  });

  it('keeps one connection pool per machine and closes it with the client', async () => {
    const smc = await server();
    const ms = new MediaServer({ host: smc.url, timeoutMs: 2000 });

    for (let call = 0; call < 20; call++) await ms.hardwareOf({ host: smc.url }).chassis.whoami();
    // undici frees a connection just after its answer is read, so the next call may open a second one; never more.
    expect(smc.connections).toBeLessThanOrEqual(2);

    await ms.close();
    await expect(ms.hardwareOf({ host: smc.url }).chassis.powerOn()).rejects.toBeInstanceOf(ClosedError);
    expect(smc.received).toHaveLength(20);
  });

  it('refuses what names no machine, saying how to name one', () => {
    const ms = client({ host: 'http://127.0.0.1:9' });

    expect(() => ms.hardwareOf('')).toThrow(HardwareTargetError);
    expect(() => ms.hardwareOf('10.0.1.6:8080')).toThrow(/give \{ host: "10\.0\.1\.6:8080" \}/);
    expect(() => ms.hardwareOf({ host: '' })).toThrow(InvalidInputError);
    expect(() => ms.hardwareOf({ host: '10.0.1.6', password: 5 as never })).toThrow(/password must be text/);
    expect(() => new MediaServer({ host: '10.0.0.5', smcs: { 'ACTOR 01': { host: '10.0.1.6' } } })).toThrow(/not a machine's hostname/);
  });

  it('is the machine option of call, which session endpoints do not take', async () => {
    const api = await server(json(200, { status: ok, result: [] }));
    const smc = await server();
    const ms = client({ host: api.url });

    await ms.call(endpoints.whoami, {}, { machine: { host: smc.url } });
    await expect(ms.call(endpoints.health, {}, { machine: { host: smc.url } })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(ms.call(endpoints.whoami, {}, { machine: '' })).rejects.toBeInstanceOf(HardwareTargetError);

    expect(paths(smc)).toEqual(['POST /api/chassis/whoami']);
    expect(api.received).toEqual([]);
  });
});

describe('parseSmcMap', () => {
  it('reads HOSTNAME=address lines, a user before the address, and the default account', () => {
    const smcs = parseSmcMap('DIRECTOR01=10.0.1.5\n# spare\nACTOR01 = ops@10.0.1.6:8080, ACTOR02=http://tech@smc-2.local', { username: 'admin', password: 'pw' });
    expect(smcs).toEqual({
      DIRECTOR01: { host: 'http://10.0.1.5', username: 'admin', password: 'pw' },
      ACTOR01: { host: 'http://10.0.1.6:8080', username: 'ops', password: 'pw' },
      ACTOR02: { host: 'http://smc-2.local', username: 'tech', password: 'pw' },
    });
  });

  it("takes each machine's own password, a ';' inside one included", () => {
    const smcs = parseSmcMap('DIRECTOR01=10.0.1.5\nACTOR01=10.0.1.6\nACTOR02=10.0.1.7', { password: 'shared', passwords: 'actor01=a;b c; d ; DIRECTOR01=other' });
    expect(smcs['ACTOR01']?.password).toBe('a;b c; d');
    expect(smcs['ACTOR02']?.password).toBe('shared');
    expect(smcs['DIRECTOR01']?.password).toBe('other');
  });

  it('refuses a password in the address, a password for no machine, and a bad entry, never showing a password', () => {
    const refusal = (text: string, passwords?: string) => {
      try {
        parseSmcMap(text, { passwords });
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidInputError);
        return (error as Error).message;
      }
      return expect.fail('the text should have been refused');
    };
    expect(refusal('ACTOR01=admin:hunter2@10.0.1.6')).toMatch(/holds a password/);
    expect(refusal('ACTOR01=10.0.1.6', 'ACTOR02=hunter2')).toMatch(/password for ACTOR02, but no management controller line/);
    expect(refusal('ACTOR01=10.0.1.6', 'hunter2')).toMatch(/Password entry 1 is not HOSTNAME=password/);
    expect(refusal('ACTOR01 10.0.1.6')).toMatch(/is not HOSTNAME=address/);
    expect(refusal('ACTOR01=10.0.1.6\nactor01=10.0.1.7')).toMatch(/two management controller lines/);
    for (const message of [refusal('ACTOR01=admin:hunter2@10.0.1.6'), refusal('ACTOR01=10.0.1.6', 'hunter2'), refusal('ACTOR01=10.0.1.6', 'ACTOR02=hunter2')]) {
      expect(message).not.toContain('hunter2');
    }
  });
});
