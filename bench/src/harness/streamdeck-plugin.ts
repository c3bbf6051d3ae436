import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The Stream Deck plugin's test harness: a fake Stream Deck app that launches the built plugin. */
export type StreamDeckHarness = typeof import('@stagelink/streamdeck/testing');

/** The harness module, or why a row that needs the built plugin cannot run. */
export async function loadStreamDeckHarness(): Promise<StreamDeckHarness | { reason: string }> {
  let appDir: string;
  try {
    appDir = dirname(createRequire(import.meta.url).resolve('@stagelink/streamdeck/package.json'));
  } catch {
    return { reason: 'apps/streamdeck is not in the workspace' };
  }
  if (!existsSync(join(appDir, 'com.stagelink.mediaserver.sdPlugin', 'bin', 'plugin.js'))) return { reason: 'the plugin is not built' };
  return import('@stagelink/streamdeck/testing');
}
