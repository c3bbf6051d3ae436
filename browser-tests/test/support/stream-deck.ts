/**
 * The Stream Deck side: the built plugin launched by the fake Stream Deck app (apps/streamdeck's harness) and
 * its property inspector pages opened in Chromium from the plugin folder, connected to the app the way the
 * Stream Deck app connects them: it loads the page, then calls `connectElgatoStreamDeckSocket(port, uuid,
 * registerEvent, info, actionInfo)`.
 */
import { FakeStreamDeck, PLUGIN_DIR } from '@stagelink/streamdeck/testing';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';

/** The action UUIDs of the plugin's manifest, as the plugin itself names them. */
export { ACTION_UUIDS as ACTIONS } from '@stagelink/streamdeck/testing';

interface InspectorWindow {
  connectElgatoStreamDeckSocket(port: number, uuid: string, registerEvent: string, info: string, actionInfo: string): void;
}

/** The fake app with the built plugin running, its global settings pointing at `host`. */
export async function startDeck(host: string): Promise<FakeStreamDeck> {
  if (!existsSync(join(PLUGIN_DIR, 'bin', 'plugin.js'))) throw new Error('The plugin is not built: pnpm --filter @stagelink/streamdeck build');
  const deck = await FakeStreamDeck.start();
  deck.globalSettings.host = host;
  try {
    await deck.launch();
  } catch (error) {
    await deck.close();
    throw error;
  }
  return deck;
}

/** Opens a key's property inspector page (`ui/<file>`) in a new tab, connected through the app to the plugin. */
export async function openInspector(browser: Browser, deck: FakeStreamDeck, file: string, context: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 480, height: 320 } });
  page.setDefaultTimeout(20_000);
  await page.goto(pathToFileURL(join(PLUGIN_DIR, 'ui', file)).href);
  deck.inspectorAppear(context);
  await page.evaluate((args) => (window as unknown as InspectorWindow).connectElgatoStreamDeckSocket(...args), deck.inspectorArguments(context));
  return page;
}

/** The values a dropdown offers, without its blank first entry. */
export async function optionValues(page: Page, selectId: string): Promise<string[]> {
  return page.locator(`#${selectId} option`).evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value).filter((value) => value !== ''));
}
