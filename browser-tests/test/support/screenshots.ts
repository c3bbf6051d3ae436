/** Every run writes its screenshots to browser-tests/screenshots/ (git-ignored), one PNG per dialog or page. */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';

export const SCREENSHOT_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'screenshots');

/** Saves `<name>.png` and returns its path. */
export async function saveScreenshot(target: Page | Locator, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await target.screenshot({ path, animations: 'disabled' });
  return path;
}
