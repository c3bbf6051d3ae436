import type { Dialect } from '@stagelink/simulator';
import type { Random } from './gen/random.js';

/** How much of each area a run tries: the CI subset fits a few minutes, the full run is the proof. */
export interface Budget {
  name: 'ci' | 'full';
  /** Rounds over the whole endpoint catalogue against the hostile server. */
  coreRounds: number;
  /** Seconds of malformed live frames per live client. */
  liveSeconds: number;
  /** Generated messages per Node-RED probe (two probes per node type). */
  messagesPerProbe: number;
  /** Generated node configurations deployed, one probe each. */
  generatedNodes: number;
  /** Rounds of the whole fault sequence. */
  faultRounds: number;
  /** Deploys in the redeploy area (full and modified-nodes alternately). */
  redeploys: number;
  /** Generated Stream Deck events. */
  deckEvents: number;
  /** Field faults: rounds of stalled answers (a few paths stalled at once each). */
  stallRounds: number;
  /** Field faults: rounds of live subscriptions falling silent after some values. */
  silenceRounds: number;
  /** Field faults: transport cues answered after their deadline. */
  lateCues: number;
  /** Field faults: rounds of subscribing while the director answers subscriptions late. */
  lateLiveRounds: number;
  /**
   * The dialects the simulator speaks, each a lane of its own, and the areas each lane runs (all when
   * undefined). The suite's own server stands in for no dialect, so lanes other than the first leave out
   * the areas that only meet it.
   */
  lanes: readonly Lane[];
}

export interface Lane {
  dialect: Dialect;
  areas?: readonly string[];
}

export const BUDGETS: Record<Budget['name'], Budget> = {
  ci: {
    name: 'ci',
    coreRounds: 2,
    liveSeconds: 3,
    messagesPerProbe: 20,
    generatedNodes: 48,
    faultRounds: 1,
    redeploys: 40,
    deckEvents: 150,
    stallRounds: 2,
    silenceRounds: 3,
    lateCues: 3,
    lateLiveRounds: 1,
    // The field faults are what shipping (r34) directors do: in CI they run there only, beside the server faults.
    lanes: [
      { dialect: 'spec', areas: ['core', 'messages', 'settings', 'malformed', 'guarded', 'deck', 'faults', 'secrets', 'redeploys'] },
      { dialect: 'r34', areas: ['faults', 'field'] },
    ],
  },
  full: {
    name: 'full',
    coreRounds: 6,
    liveSeconds: 10,
    messagesPerProbe: 120,
    generatedNodes: 240,
    faultRounds: 3,
    redeploys: 200,
    deckEvents: 800,
    stallRounds: 12,
    silenceRounds: 10,
    lateCues: 16,
    lateLiveRounds: 6,
    lanes: [{ dialect: 'spec' }, { dialect: 'r34', areas: ['messages', 'settings', 'guarded', 'deck', 'faults', 'field'] }],
  },
};

export interface RunContext {
  seed: number;
  random: Random;
  budget: Budget;
  /** The dialect of every simulator the areas start in this lane. */
  dialect: Dialect;
  progress(line: string): void;
}
