import { describe, expect, it } from 'vitest';
import { ClosedError } from '../../src/errors.js';
import { silentLogger } from '../../src/http/logger.js';
import { MediaServer } from '../../src/media-server/media-server.js';
import { ShowClocks } from '../../src/show-clock/show-clocks.js';
import { fakeSources, TIMING } from './fake-sources.js';

describe('watching the clock of a closed client', () => {
  it('is a ClosedError, and leaves no timer behind', async () => {
    const fake = fakeSources();
    const clocks = new ShowClocks(fake.sources, TIMING, silentLogger);
    clocks.close();
    expect(() => clocks.watch({ name: 'main' }, () => undefined)).toThrow(ClosedError);
    await new Promise((resolve) => setTimeout(resolve, TIMING.retryMs * 3));
    expect(fake.reads).toBe(0);
  });

  it('through ms.transport.watch after ms.close()', async () => {
    const ms = new MediaServer({ host: 'http://127.0.0.1:9' });
    await ms.close();
    expect(() => ms.transport.watch({ name: 'main' }, () => undefined)).toThrow(/closed/);
  });
});
