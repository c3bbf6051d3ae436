import { afterAll, beforeAll, beforeEach } from 'vitest';
import { simControl, startSimulator, type Simulator, type SimulatorOptions } from '../../src/index.js';

/**
 * A simulator for the tests of one file or describe block: started before them, closed after them, and reset
 * through its control endpoint before each test. Read it through the returned function once the tests run.
 */
export function simulatorPerFile(options: SimulatorOptions): () => Simulator {
  let sim: Simulator | undefined;
  const started = (): Simulator => {
    if (!sim) throw new Error('The simulator starts before the first test: read it inside a test or a hook.');
    return sim;
  };
  beforeAll(async () => {
    sim = await startSimulator(options);
  });
  afterAll(() => sim?.close());
  beforeEach(async () => {
    await simControl(started().mediaServer.url, { action: 'reset' });
  });
  return started;
}
