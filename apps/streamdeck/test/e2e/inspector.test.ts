/**
 * What the property inspectors are told, read from the simulator through core, without the plugin process
 * (the plugin's end-to-end test covers the round trip through the Stream Deck socket).
 */
import { MediaServer } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerInspector } from '../../src/inspector/inspector-requests.js';
import { sectionLabel } from '../../src/inspector/section-label.js';
import { ServerPool } from '../../src/state/connection/server-pool.js';
import { english } from '../unit/locales.js';
import { control, startSim } from './simulator.js';

const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

describe('inspector requests against the simulator', () => {
  let sim: Simulator;
  let client: MediaServer;
  let pool: ServerPool;

  beforeAll(async () => {
    sim = await startSim();
    client = new MediaServer({ host: sim.mediaServer.url });
    pool = new ServerPool({ logger: { warn: () => undefined }, idleCloseMs: 10 });
  });

  afterAll(async () => {
    await pool.close();
    await client.close();
    await sim.close();
  });

  it('reports the connection with the director and the number of machines', async () => {
    const session = await client.status.session();
    const answer = await answerInspector(pool, { request: 'connection', requestId: 'a' }, sim.mediaServer.url, english);
    expect(answer).toMatchObject({ response: 'connection', requestId: 'a', state: 'online', host: sim.mediaServer.url });
    expect(text(answer.message)).toContain(session.director?.hostname ?? 'solo');
  });

  it('lists transports and multitransports by name', async () => {
    const { transports, multitransports } = await client.transport.transports();
    const answer = await answerInspector(pool, { request: 'transports' }, sim.mediaServer.url, english);
    expect((answer.items as { value: string }[]).map((item) => item.value)).toEqual([...transports, ...multitransports].map((t) => t.name));
  });

  it("lists a track's sections and notes", async () => {
    const [track] = await client.transport.tracks();
    const { annotations } = await client.transport.annotations({ name: track?.name ?? '' });
    const sections = await answerInspector(pool, { request: 'sections', track: track?.name ?? '' }, sim.mediaServer.url, english);
    expect(sections.items).toEqual(annotations.sections.map((s) => ({ value: String(s.index), label: sectionLabel(s) })));
    const notes = await answerInspector(pool, { request: 'notes', track: track?.name ?? '' }, sim.mediaServer.url, english);
    expect((notes.items as { value: string }[]).map((item) => item.value)).toEqual(annotations.notes.map((n) => n.text));
  });

  it('lists the machines of the session with their roles', async () => {
    const session = await client.status.session();
    const answer = await answerInspector(pool, { request: 'machines' }, sim.mediaServer.url, english);
    const hostnames = [session.director, ...session.actors, ...session.understudies].filter((m) => m !== undefined).map((m) => m.hostname);
    expect((answer.items as { value: string }[]).map((item) => item.value)).toEqual(hostnames);
  });

  it('says what is wrong instead of throwing', async () => {
    expect(text((await answerInspector(pool, { request: 'sections' }, sim.mediaServer.url, english)).error)).toContain('track');
    expect(await answerInspector(pool, { request: 'sections', track: 'No such track' }, sim.mediaServer.url, english)).toHaveProperty('error');
    expect(await answerInspector(pool, { request: 'format the disk' }, sim.mediaServer.url, english)).toHaveProperty('error');
    expect(await answerInspector(pool, null, sim.mediaServer.url, english)).toHaveProperty('error');
    expect(text((await answerInspector(pool, { request: 'tracks' }, undefined, english)).error)).toContain('address');
    expect(await answerInspector(pool, { request: 'connection' }, 'ftp://nope', english)).toMatchObject({ state: 'invalid' });
  });

  it('refuses a host that is not text instead of reading 5 as the address 0.0.0.5', async () => {
    const connection = await answerInspector(pool, { request: 'connection', host: 5 }, sim.mediaServer.url, english);
    expect(connection).toMatchObject({ state: 'invalid', host: '' });
    expect(text(connection.message)).toContain('must be text, not the number 5');
    expect(text((await answerInspector(pool, { request: 'tracks' }, 5, english)).error)).toContain('must be text, not the number 5');
  });

  it('says a list that stops after its headers is a large answer that fails (MTU?), while the connection line stays online', async () => {
    const path = '/api/session/transport/transports';
    await control(sim, { action: 'stallBody', path, on: true });
    try {
      const answer = await answerInspector(pool, { request: 'transports' }, sim.mediaServer.url, english);
      expect(answer).toMatchObject({ state: 'stalled' });
      expect(text(answer.error)).toMatch(/^Reachable, but large answers do not arrive \(MTU\?\)\. .*MTU/);
      expect(await answerInspector(pool, { request: 'connection' }, sim.mediaServer.url, english)).toMatchObject({ state: 'online' });
    } finally {
      await control(sim, { action: 'stallBody', path, on: false });
    }
  });

  it('reports a server that does not answer as offline', async () => {
    const answer = await answerInspector(pool, { request: 'connection' }, 'http://127.0.0.1:9', english);
    expect(answer).toMatchObject({ state: 'offline' });
    expect(text(answer.message)).not.toBe('');
  });
});

describe('inspector connection line in a session of several machines', () => {
  let sim: Simulator;
  let pool: ServerPool;
  const warnings: string[] = [];

  beforeAll(async () => {
    const { startSimulator } = await import('@stagelink/simulator');
    // Following the director by its hostname needs names this machine resolves, as the documents' loopback
    // addresses are; r34 machine names are not (the plugin's r34 tests cue a director at its typed address).
    sim = await startSimulator({ scenario: 'session', port: 0, drivePort: 0, dialect: 'spec' });
    pool = new ServerPool({ logger: { warn: (message) => warnings.push(message) }, idleCloseMs: 10 });
  });

  afterAll(async () => {
    await pool.close();
    await sim.close();
  });

  it('says which machine directs when the key names an actor, follows a director move, and says it moved', async () => {
    const actor = sim.machines().find((machine) => machine.role === 'actor');
    if (!actor) throw new Error('the session has an actor');
    // Kept open across the move, as a key on screen keeps it: the same client must follow the director.
    const lease = pool.acquire(actor.url);
    try {
      const first = await answerInspector(pool, { request: 'connection' }, actor.url, english);
      expect(text(first.message)).toContain(`director 127.0.0.2 (followed from ${actor.hostname})`);
      expect(text(first.message)).not.toContain('moved');

      await fetch(`${sim.mediaServer.url}/__sim/control`, { method: 'POST', body: JSON.stringify({ action: 'moveDirector', to: '127.0.0.4' }) });
      await lease.server.transport.play({ name: 'main' });
      expect(lease.server.director?.hostname).toBe('127.0.0.4');

      const after = await answerInspector(pool, { request: 'connection' }, actor.url, english);
      expect(text(after.message)).toContain('director 127.0.0.4');
      expect(text(after.message)).toContain('Director moved to 127.0.0.4 (was 127.0.0.2).');
      expect(warnings).toContainEqual(expect.stringMatching(/is now 127\.0\.0\.4 .*, after 127\.0\.0\.2/));
    } finally {
      lease.release();
    }
  });
});
