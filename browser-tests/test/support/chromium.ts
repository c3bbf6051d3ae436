/**
 * Debian's Chromium, driven by playwright-core. The tests never download a browser (there is no internet on
 * the show machines or in CI): .ci/run installs the `chromium` package, and a missing one fails the run.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM_PATH}. Install Debian's package as .ci/run does ` +
        '(apt-get update && apt-get install -y --no-install-recommends chromium); the browser tests never download a browser.',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: FLAGS });
}
