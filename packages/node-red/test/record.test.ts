import { readShowLog, type ShowLogRecord } from '@stagelink/core';
import type { Simulator } from '@stagelink/simulator';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { savedNode } from './support/editor-defaults.js';
import { collect, control, eventually, helper, hostnames, nodeModules, statuses, useSimulator } from './support/harness.js';

const nodes = nodeModules('stagelink-server', 'stagelink-liveupdate-in', 'stagelink-status', 'stagelink-transport', 'stagelink-record');

async function recordsIn(dir: string): Promise<ShowLogRecord[]> {
  const records: ShowLogRecord[] = [];
  for await (const record of readShowLog(dir)) records.push(record);
  return records;
}

/** A node of the running flow, to hand msgs to. */
function nodeOf(id: string): { receive(msg: Record<string, unknown>): void } {
  const node = helper.getNode(id);
  if (!node) throw new Error(`No node ${id} in the flow`);
  return node;
}

/** A node's calls of `method` (warn, error), as the helper reports them. */
function calls(nodeId: string, method: 'warn' | 'error'): unknown[][] {
  const node = helper.getNode(nodeId);
  if (!node) throw new Error(`No node ${nodeId} in the flow`);
  const seen: unknown[][] = [];
  node.on(`call:${method}`, (call: { args: unknown[] }) => seen.push(call.args));
  return seen;
}

describe('stagelink-record', () => {
  let sim: Simulator;
  let dir: string;
  useSimulator((started) => (sim = started));
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stagelink-record-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** A tab with the server on the simulator, the record node `rec` as the editor saves it, and `nodes` wired into it. */
  const flow = (record: Record<string, unknown>, ...others: Record<string, unknown>[]) => [
    { id: 'tab', type: 'tab', label: 'test' },
    { id: 'server', type: 'stagelink-server', host: sim.mediaServer.url, followDirector: true },
    { id: 'rec', z: 'tab', ...savedNode('stagelink-record', { folder: dir, server: 'server', ...record }) },
    ...others.map((node) => ({ z: 'tab', ...node })),
  ];

  it('writes FPS, health and every cue with its result from a flow, as readShowLog reads the bridge\'s log', async () => {
    await helper.load(
      nodes,
      flow(
        {},
        { id: 'fpsIn', ...savedNode('stagelink-liveupdate-in', { server: 'server', preset: 'localFps' }), wires: [['rec'], ['rec']] },
        { id: 'healthReads', ...savedNode('stagelink-status', { server: 'server', operation: 'health', interval: 1 }), wires: [['rec'], ['rec']] },
        { id: 'cue1', ...savedNode('stagelink-transport', { server: 'server', command: 'play', transport: 'main' }), wires: [['rec']] },
        // The transport left blank takes msg.transport: one that the director does not know is refused.
        { id: 'cue2', ...savedNode('stagelink-transport', { server: 'server', command: 'stop' }), wires: [['rec']] },
        // Failures reach Catch nodes only: one scoped to the cue nodes hands them to the record node.
        { id: 'catcher', type: 'catch', scope: ['cue1', 'cue2'], uncaught: false, wires: [['rec']] },
      ),
    );
    const seen = statuses('rec');
    nodeOf('cue1').receive({});
    nodeOf('cue2').receive({ transport: 'no such transport' });

    const director = hostnames(sim).director.toLowerCase();
    await eventually(async () => {
      const records = await recordsIn(dir);
      expect(records[0]).toMatchObject({ kind: 'log', v: 1, source: expect.stringMatching(/^stagelink-node-red \d/) as unknown, session: sim.mediaServer.url });
      expect(records.find((record) => record.kind === 'fps')).toMatchObject({ machine: expect.any(String) as unknown, value: expect.any(Number) as unknown });
      expect(records.find((record) => record.kind === 'health' && record.machine?.toLowerCase() === director)).toMatchObject({ severity: expect.any(String) as unknown });
      expect(records.filter((record) => record.kind === 'command')).toEqual([
        expect.objectContaining({ command: 'transport/play', transport: 'main', ok: true, ms: expect.any(Number) as unknown }) as unknown,
        expect.objectContaining({ command: 'transport/stop', transport: 'no such transport', ok: false, error: expect.stringContaining('no such transport') as unknown, code: expect.any(String) as unknown, ms: expect.any(Number) as unknown }) as unknown,
      ]);
    }, 10_000);
    const records = await recordsIn(dir);
    // The local monitor is the director's: the server follows it.
    expect(records.filter((record) => record.kind === 'fps').every((record) => record.kind === 'fps' && record.machine.toLowerCase() === director)).toBe(true);
    // Health is written on change only: a second's polls of an unchanged session add nothing.
    const machines = records.filter((record) => record.kind === 'health').map((record) => (record.kind === 'health' ? record.machine : ''));
    expect(new Set(machines).size).toBe(machines.length);
    await eventually(() => expect(seen.at(-1)).toMatchObject({ fill: 'green', text: expect.stringMatching(/^\d+ written: /) as unknown }));
  });

  it('stamps a cue answered late with the time it was given, and how long its answer took', async () => {
    await helper.load(
      nodes,
      flow({}, { id: 'cue', ...savedNode('stagelink-transport', { server: 'server', command: 'play', transport: 'main' }), wires: [['rec', 'out']] }, { id: 'out', type: 'helper' }),
    );
    // The director carries out the cue at once and answers it 4 s later.
    await control(sim, { action: 'slowAnswer', ms: 4000 });
    const given = Date.now();
    const answered = new Promise<number>((resolve) => helper.getNode('out')?.on('input', () => resolve(Date.now())));
    nodeOf('cue').receive({ timeout: 10_000 });
    const answeredAt = await answered;

    let command: (ShowLogRecord & { ms?: number }) | undefined;
    await eventually(async () => {
      command = (await recordsIn(dir)).find((record) => record.kind === 'command');
      expect(command).toMatchObject({ command: 'transport/play', transport: 'main', ok: true });
    });
    const stamped = Date.parse(command?.t ?? '');
    expect(stamped).toBeGreaterThanOrEqual(given - 1);
    // Stamped when it was given, not when its answer came.
    expect(stamped).toBeLessThanOrEqual(answeredAt - 3000);
    expect(command?.ms).toBeGreaterThanOrEqual(4000);
  }, 30_000);

  it('writes a dropped live stream as the link going offline, and online again when it is back', async () => {
    await helper.load(nodes, flow({}, { id: 'fpsIn', ...savedNode('stagelink-liveupdate-in', { server: 'server', preset: 'localFps' }), wires: [['rec'], ['rec']] }));
    await eventually(async () => expect((await recordsIn(dir).catch(() => [])).some((record) => record.kind === 'fps')).toBe(true));
    await control(sim, { action: 'refuseUpgrades', on: true });
    try {
      await control(sim, { action: 'dropSockets' });
      await eventually(async () => expect((await recordsIn(dir)).filter((record) => record.kind === 'link').map((record) => record.kind === 'link' && record.status)).toEqual(['online', 'offline']));
    } finally {
      await control(sim, { action: 'refuseUpgrades', on: false });
    }
    await eventually(async () => expect((await recordsIn(dir)).filter((record) => record.kind === 'link').map((record) => record.kind === 'link' && record.status)).toEqual(['online', 'offline', 'online']), 20_000);
    // Values after the gap are written again: the span the report draws ends there.
    const records = await recordsIn(dir);
    const back = records.findLastIndex((record) => record.kind === 'link');
    await eventually(async () => expect((await recordsIn(dir)).slice(back + 1).some((record) => record.kind === 'fps')).toBe(true));
  });

  it('writes a show log entry a function node sends, and counts a msg it cannot read without throwing, warning once per sender', async () => {
    await helper.load(nodes, flow({}));
    const seen = statuses('rec');
    const warnings = calls('rec', 'warn');
    const errors = calls('rec', 'error');
    const rec = nodeOf('rec');
    rec.receive({ payload: { kind: 'takeover', machine: 'UNDERSTUDY01', value: true } });
    rec.receive({ topic: 'dashboard', payload: 'hello' });
    rec.receive({ topic: 'dashboard', payload: 42 });
    // Of a kind the format has, without the fields it needs.
    rec.receive({ topic: 'mine', payload: { kind: 'fps', machine: 'ACTOR01' } });
    await eventually(() => expect(seen.at(-1)).toEqual({ fill: 'yellow', shape: 'dot', text: '1 ok, 3 skipped' }));
    expect(warnings.map(([text]) => String(text))).toEqual([expect.stringContaining('topic "dashboard"') as unknown, expect.stringContaining('topic "mine"') as unknown]);
    expect(errors).toEqual([]);
    await helper.unload();
    expect((await recordsIn(dir)).map((record) => record.kind)).toEqual(['log', 'takeover']);
  });

  it('closes the file on redeploy: everything is on disk, and the next run appends to the same day after its own log record', async () => {
    await helper.load(nodes, flow({ session: 'main stage' }));
    nodeOf('rec').receive({ payload: { kind: 'director', machine: 'DIRECTOR01' } });
    await helper.unload();
    // No waiting: close wrote and synced what was pending before the deploy went on.
    expect((await recordsIn(dir)).map((record) => record.kind)).toEqual(['log', 'director']);

    await helper.load(nodes, flow({ session: 'main stage' }));
    nodeOf('rec').receive({ payload: { kind: 'director', machine: 'DIRECTOR02', previous: 'DIRECTOR01' } });
    await helper.unload();
    expect(await readdir(dir)).toHaveLength(1);
    const records = await recordsIn(dir);
    expect(records.map((record) => record.kind)).toEqual(['log', 'director', 'log', 'director']);
    expect(records[2]).toMatchObject({ kind: 'log', session: 'main stage' });
  });

  it('says once that it cannot write its folder, shows it in red, and goes on taking msgs', async () => {
    const blocked = join(dir, 'blocked');
    await writeFile(blocked, 'a file where the folder should be');
    await helper.load(nodes, [
      ...flow({ folder: join(blocked, 'show') }),
      { id: 'catcher', z: 'tab', type: 'catch', scope: ['rec'], uncaught: false, wires: [['caught']] },
      { id: 'caught', z: 'tab', type: 'helper' },
    ]);
    const seen = statuses('rec');
    const errors = calls('rec', 'error');
    const caught = collect('caught');
    await eventually(() => expect(seen.at(-1)).toEqual({ fill: 'red', shape: 'dot', text: 'cannot write' }));
    const rec = nodeOf('rec');
    for (let i = 0; i < 3; i++) rec.receive({ payload: { kind: 'link', status: i % 2 === 0 ? 'offline' : 'online' } });
    rec.receive({ topic: 'dashboard', payload: 'hello' });
    // Past the recorder's own failure to open the file at the first entry: still one error.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(errors).toHaveLength(1);
    expect(caught).toHaveLength(1);
    expect(caught[0]).toMatchObject({ topic: 'setup', error: { message: expect.stringContaining('Cannot write the show log to') as unknown } });
    expect(seen.at(-1)).toEqual({ fill: 'red', shape: 'dot', text: 'cannot write' });
  });

  it('shows its folder written again once it can be, not "cannot write" for the rest of the deploy', async () => {
    const blocked = join(dir, 'blocked');
    await writeFile(blocked, 'a file where the folder should be');
    const folder = join(blocked, 'show');
    await helper.load(nodes, flow({ folder }));
    const seen = statuses('rec');
    const errors = calls('rec', 'error');
    await eventually(() => expect(seen.at(-1)).toEqual({ fill: 'red', shape: 'dot', text: 'cannot write' }));
    const rec = nodeOf('rec');
    rec.receive({ payload: { kind: 'link', status: 'offline' } });

    // The folder can be written now: the recorder opens its file again a few seconds after it failed.
    await rm(blocked);
    let sent = 0;
    await eventually(async () => {
      // A change each time: the same link state twice is one entry.
      rec.receive({ payload: { kind: 'link', status: sent++ % 2 === 0 ? 'online' : 'offline' } });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(seen.at(-1)).toMatchObject({ fill: 'green' });
    }, 20_000);
    expect((await recordsIn(folder)).filter((record) => record.kind === 'link').length).toBeGreaterThan(0);
    expect(errors).toHaveLength(1);
  }, 40_000);

  it('shows a folder it could not write at deploy as written once the first entry reaches it', async () => {
    const blocked = join(dir, 'blocked');
    await writeFile(blocked, 'a file where the folder should be');
    await helper.load(nodes, flow({ folder: join(blocked, 'show') }));
    const seen = statuses('rec');
    await eventually(() => expect(seen.at(-1)).toEqual({ fill: 'red', shape: 'dot', text: 'cannot write' }));
    await rm(blocked);
    nodeOf('rec').receive({ payload: { kind: 'link', status: 'online' } });
    await eventually(() => expect(seen.at(-1)).toMatchObject({ fill: 'green' }));
  });

  it('says at deploy that it has no folder, and takes msgs without recording them', async () => {
    await helper.load(nodes, flow({ folder: '' }));
    const seen = statuses('rec');
    const errors = calls('rec', 'error');
    await eventually(() => expect(seen.at(-1)).toEqual({ fill: 'red', shape: 'dot', text: 'no folder chosen' }));
    nodeOf('rec').receive({ payload: { kind: 'link', status: 'online' } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(seen.at(-1)).toEqual({ fill: 'red', shape: 'dot', text: 'no folder chosen' });
    expect(errors).toHaveLength(1);
    expect(await readdir(dir)).toEqual([]);
  });
});
