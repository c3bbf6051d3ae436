/** `pnpm start`'s setup for a test: the simulator and Node-RED with the example flows, in a temporary user dir. */
import { startDemo, type Demo } from '@stagelink/venue/testing';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface NodeRedDemo extends Demo {
  /** What Node-RED printed, for failure messages. */
  log(): string;
  close(): Promise<void>;
}

export async function startNodeRedDemo(): Promise<NodeRedDemo> {
  const userDir = mkdtempSync(join(tmpdir(), 'stagelink-browser-'));
  try {
    const demo = await startDemo({ userDir, credentialSecret: randomBytes(24).toString('hex') });
    return {
      ...demo,
      log: () => demo.red.output(),
      close: async () => {
        await demo.stop();
        rmSync(userDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(userDir, { recursive: true, force: true });
    throw error;
  }
}
