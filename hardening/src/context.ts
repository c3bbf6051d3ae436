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
}

export const BUDGETS: Record<Budget['name'], Budget> = {
  ci: { name: 'ci', coreRounds: 2, liveSeconds: 3, messagesPerProbe: 20, generatedNodes: 48, faultRounds: 1, redeploys: 40, deckEvents: 150 },
  full: { name: 'full', coreRounds: 6, liveSeconds: 10, messagesPerProbe: 120, generatedNodes: 240, faultRounds: 3, redeploys: 200, deckEvents: 800 },
};

export interface RunContext {
  seed: number;
  random: Random;
  budget: Budget;
  progress(line: string): void;
}
