import { describe, expect, it } from 'vitest';
import { ControlPanel } from '../src/control.js';
import { registerCoreActions } from '../src/control-actions.js';
import { Faults } from '../src/faults.js';
import { demoState } from './support/demo-state.js';

/** The control actions on a demo session, with a reset that rebuilds it as the simulator's does. */
function panel() {
  const target = {
    faults: new Faults(),
    state: demoState(),
    reset: () => {
      target.state = demoState();
      target.faults.clear();
    },
  };
  const { faults } = target;
  const control = new ControlPanel(() => ({ loggedIn: target.state.hardware.loggedIn, latencyMs: faults.latencyMs, failNext: faults.failNext ?? null }));
  registerCoreActions(control, target);
  return { control, faults, state: () => target.state, send: (body: unknown) => control.handle(() => body) };
}

describe('control actions', () => {
  it('answers 200 with the state summary', async () => {
    const { send } = panel();
    expect(await send({ action: 'login', loggedIn: true })).toEqual({ status: 200, body: { loggedIn: true, latencyMs: 0, failNext: null } });
  });

  it('status changes nothing and answers the summary', async () => {
    expect(await panel().send({ action: 'status' })).toEqual({ status: 200, body: { loggedIn: false, latencyMs: 0, failNext: null } });
  });

  it('refuses an unknown action with 400, listing the known ones', async () => {
    const answer = await panel().send({ action: 'explode' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: expect.stringContaining('"explode"') as unknown });
    expect(JSON.stringify(answer.body)).toContain('status, latency, failNext, login, reset');
  });

  it('refuses bad parameters with 400 and a message naming them', async () => {
    const { send } = panel();
    expect(await send({ action: 'latency', ms: -5 })).toMatchObject({ status: 400, body: { message: expect.stringContaining('ms must be') as unknown } });
    expect(await send({ action: 'failNext', status: 200 })).toMatchObject({ status: 400 });
    expect(await send({ action: 'login' })).toMatchObject({ status: 400, body: { message: 'loggedIn is missing.' } });
    expect(await send('reset')).toMatchObject({ status: 400 });
  });

  it('latency with jitter delays each request by the latency plus at most the jitter', async () => {
    const { send, faults } = panel();
    await send({ action: 'latency', ms: 20, jitterMs: 30 });
    const delays = Array.from({ length: 200 }, () => faults.nextDelayMs());
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(20);
    expect(Math.max(...delays)).toBeLessThan(50);
    expect(new Set(delays).size).toBeGreaterThan(1);
    expect(await send({ action: 'latency', ms: 0, jitterMs: -1 })).toMatchObject({ status: 400 });
  });

  it('failNext counts the next requests down', async () => {
    const { send, faults } = panel();
    await send({ action: 'failNext', status: 503, count: 2 });
    expect([faults.takeFailure(), faults.takeFailure(), faults.takeFailure()]).toEqual([503, 503, undefined]);
  });

  it('reset rebuilds the session and clears the faults and the login', async () => {
    const { send, state } = panel();
    await send({ action: 'login', loggedIn: true });
    await send({ action: 'latency', ms: 250 });
    state().transports.command([{ name: 'main' }], 'play');

    expect(await send({ action: 'reset' })).toEqual({ status: 200, body: { loggedIn: false, latencyMs: 0, failNext: null } });
    expect(state().transports.positionOf({ name: 'main' }).playmode).toBe('stop');
  });

  it('selects the active transport, which the API has no call for', async () => {
    const { send, state } = panel();
    await send({ action: 'selectTransport', transport: { name: 'lobby' } });
    expect(state().transports.active().map((transport) => transport.name)).toEqual(['lobby']);
    expect(await send({ action: 'selectTransport', transport: { name: 'foyer' } })).toMatchObject({ status: 400 });
  });

  it('takes more actions, registered by other parts of the simulator', async () => {
    const { control, send } = panel();
    let dropped = false;
    control.register('dropSockets', () => {
      dropped = true;
    });
    expect((await send({ action: 'dropSockets' })).status).toBe(200);
    expect(dropped).toBe(true);
    expect(() => control.register('dropSockets', () => undefined)).toThrow(/twice/);
  });

  it('adds the parts other modules contribute to the summary', async () => {
    const { control, send } = panel();
    control.addSummaryPart('live', () => ({ sockets: 2 }));
    expect(await send({ action: 'login', loggedIn: false })).toMatchObject({ status: 200, body: { live: { sockets: 2 }, loggedIn: false } });
  });
});
