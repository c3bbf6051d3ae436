/**
 * FPS keys across a director takeover, through the built plugin and the fake Stream Deck app, in both dialects: a
 * machine's FPS is its local monitor while it directs and a remote monitor (named as the dialect names it) while
 * another machine does. Every machine's FPS is fixed to a value of its own, so a key shows which machine it reads.
 * The director is switched off, another machine takes over, and the old director comes back into the session: each
 * key still shows its own machine's FPS, the old director's included (its key read the local monitor, which is the
 * new director's now).
 */
import { simControl, startSimulator, type Simulator } from '@stagelink/simulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeStreamDeck } from '../harness/fake-stream-deck.js';

const FPS = 'com.stagelink.mediaserver.fps';
/** The spec's bound for a client to follow a takeover, with room for a busy machine. */
const FOLLOWED_MS = 30_000;
/** A value of its own for each machine, in the order the session lists them (director first). */
const FIXED_FPS = [30, 25, 24, 23];

const shownFps = (svg: string): number | undefined => {
  const shown = />(\d+(?:\.\d)?) FPS</.exec(svg)?.[1];
  return shown === undefined ? undefined : Number(shown);
};

describe.each(['spec', 'r34'] as const)('FPS keys after a director takeover (%s)', (dialect) => {
  let sim: Simulator;
  let deck: FakeStreamDeck;

  beforeEach(async () => {
    sim = await startSimulator({ scenario: 'session', port: 0, drivePort: 0, dialect, seed: 7 });
    deck = await FakeStreamDeck.start();
  });

  afterEach(async () => {
    await deck.close();
    await sim.close();
  });

  const machine = (role: string) => {
    const found = sim.machines().find((candidate) => candidate.role === role && candidate.running);
    if (!found) throw new Error(`the session has a running ${role}`);
    return found;
  };
  const showing = (context: string, fps: number, what: string) =>
    deck.waitForLatestImage(context, (svg) => shownFps(svg) === fps, `${fps} FPS, ${what}`, FOLLOWED_MS);

  it("shows each named machine's own FPS, and the director's on the unnamed key, before and after the role moves", async () => {
    const fpsOf = new Map(sim.machines().map(({ hostname }, index) => [hostname, FIXED_FPS[index] ?? 20]));
    for (const [hostname, fps] of fpsOf) await simControl(sim.mediaServer.url, { action: 'machineFps', hostname, fps });
    const given = machine('director');
    deck.globalSettings.host = given.url;
    // r34 machine names do not resolve here: the settings page's hosts map gives their addresses, one NAME=address a line.
    if (dialect === 'r34') deck.globalSettings.hosts = sim.machines().map(({ hostname, url }) => `${hostname}=${new URL(url).host}`).join('\n');
    await deck.launch();
    deck.appear({ action: FPS, context: 'local', settings: {} });
    await showing('local', fpsOf.get(given.hostname) ?? 0, 'the director before the takeover');
    // Keys that appear once the director is known (a page flipped to): the director's reads its local monitor.
    for (const { hostname } of sim.machines()) deck.appear({ action: FPS, context: hostname, settings: { machine: hostname } });
    for (const [hostname, fps] of fpsOf) await showing(hostname, fps, `${hostname} before the takeover`);

    await simControl(machine('actor').url, { action: 'stopMachine', hostname: given.hostname });
    const successor = machine('director');
    expect(successor.hostname).not.toBe(given.hostname);
    const successorFps = fpsOf.get(successor.hostname) ?? 0;
    await showing('local', successorFps, `the new director ${successor.hostname}`);
    await showing(successor.hostname, successorFps, `${successor.hostname}, directing now`);

    // The old director comes back into the session under another role: its key reads it, not the new director.
    await simControl(successor.url, { action: 'startMachine', hostname: given.hostname });
    for (const [hostname, fps] of fpsOf) await showing(hostname, fps, `${hostname} after the takeover`);
    await showing('local', successorFps, `the new director ${successor.hostname}, still`);
  });
});
