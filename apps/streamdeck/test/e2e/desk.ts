/** A desk for the end-to-end tests: the simulator, a client of it, and the fake app running the built plugin. */
import { MediaServer } from '@stagelink/core';
import type { Dialect, LogSink, Simulator } from '@stagelink/simulator';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FakeStreamDeck, PLUGIN_DIR, type LaunchOptions } from '../harness/fake-stream-deck.js';
import { startSim } from './simulator.js';

export interface Desk {
  sim: Simulator;
  /** Reads and changes the simulated show as a test sees fit, beside the plugin. */
  client: MediaServer;
  deck: FakeStreamDeck;
  close(): Promise<void>;
}

/**
 * `log` hears every request the simulator answers; `dialect` fixes the simulator's (default: STAGELINK_SIM_DIALECT);
 * the plugin is launched with the simulator as its server.
 */
export async function startDesk(options: { log?: LogSink; launch?: LaunchOptions; dialect?: Dialect } = {}): Promise<Desk> {
  if (!existsSync(join(PLUGIN_DIR, 'bin', 'plugin.js'))) throw new Error('Build the plugin first: pnpm --filter @stagelink/streamdeck build');
  const sim = await startSim(0, options.log, options.dialect);
  const client = new MediaServer({ host: sim.mediaServer.url });
  const deck = await FakeStreamDeck.start();
  deck.globalSettings.host = sim.mediaServer.url;
  await deck.launch(options.launch);
  return {
    sim,
    client,
    deck,
    close: async () => {
      await deck.close();
      await client.close();
      await sim.close();
    },
  };
}
