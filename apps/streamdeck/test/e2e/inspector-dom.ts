/**
 * The real settings pages in a DOM (jsdom), as the Stream Deck app's browser runs them, connected through the fake
 * app to the built plugin.
 */
import { JSDOM } from 'jsdom';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { vi } from 'vitest';
import { type FakeStreamDeck, PLUGIN_DIR } from '../harness/fake-stream-deck.js';

export interface InspectorWindow {
  connectElgatoStreamDeckSocket(port: number, uuid: string, registerEvent: string, info: string, actionInfo: string): void;
}

/** A page as it loads, scripts run, before the app connects it. */
export function loadPage(page: string): JSDOM {
  const html = readFileSync(join(PLUGIN_DIR, 'ui', page), 'utf8');
  // The page's own <script src>s are not fetched: the scripts are run below, in order, as the app's browser would.
  const scripts = [...html.matchAll(/<script src="([^"]+)"><\/script>/g)].map((match) => join(PLUGIN_DIR, 'ui', match[1] ?? ''));
  const dom = new JSDOM(html.replace(/<script src="[^"]+"><\/script>/g, ''), { runScripts: 'outside-only', url: 'http://localhost/' });
  for (const script of scripts) dom.window.eval(readFileSync(script, 'utf8'));
  return dom;
}

/** A page opened for a key and connected by the app, as when the operator selects the key. */
export function openInspector(deck: FakeStreamDeck, page: string, context: string): JSDOM {
  const dom = loadPage(page);
  deck.inspectorAppear(context);
  (dom.window as unknown as InspectorWindow).connectElgatoStreamDeckSocket(...deck.inspectorArguments(context));
  return dom;
}

/** The values a dropdown offers, the blank choice left out. */
export function options(dom: JSDOM, id: string): string[] {
  const select = dom.window.document.getElementById(id) as HTMLSelectElement | null;
  return select ? [...select.options].map((option) => option.value).filter((value) => value !== '') : [];
}

/** The labels a dropdown shows, the blank choice left out. */
export function labels(dom: JSDOM, id: string): string[] {
  const select = dom.window.document.getElementById(id) as HTMLSelectElement | null;
  return select ? [...select.options].filter((option) => option.value !== '').map((option) => option.textContent ?? '') : [];
}

/** The label of one value of a dropdown. */
export function optionLabel(dom: JSDOM, id: string, value: string): string | undefined {
  const select = dom.window.document.getElementById(id) as HTMLSelectElement | null;
  return [...(select?.options ?? [])].find((option) => option.value === value)?.textContent ?? undefined;
}

/** Picks a value as the operator does: sets it and fires `change`. */
export function choose(dom: JSDOM, id: string, value: string): void {
  const field = dom.window.document.getElementById(id) as HTMLSelectElement | HTMLInputElement;
  field.value = value;
  field.dispatchEvent(new dom.window.Event('change'));
}

/** Waits until `read` gives something other than undefined or false, and answers it; fails naming `what`. */
export function until<T>(what: string, read: () => T | undefined | false, timeoutMs = 8000): Promise<T> {
  return vi.waitFor(
    () => {
      const value = read();
      if (value === undefined || value === false) throw new Error(`Still waiting for ${what}`);
      return value;
    },
    { timeout: timeoutMs, interval: 50 },
  );
}
