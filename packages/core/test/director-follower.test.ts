import { afterEach, describe, expect, it } from 'vitest';
import { DirectorFollower } from '../src/discovery/director-follower.js';
import { silentLogger } from '../src/http/logger.js';
import { silence, startScriptedServer } from './support/scripted-server.js';

const open: { close(): Promise<void> | void }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

describe('DirectorFollower', () => {
  it('asks a director that does not answer once per check, not once as current and again as known', async () => {
    const poweredOff = await startScriptedServer([], silence);
    open.push(poweredOff);
    const follower = new DirectorFollower(poweredOff.url, () => undefined, silentLogger, { intervalMs: 60_000 });
    open.push({ close: () => follower.stop() });
    await follower.ready();
    expect(follower.director).toBeUndefined();
    expect(poweredOff.received).toHaveLength(1);
  });
});
