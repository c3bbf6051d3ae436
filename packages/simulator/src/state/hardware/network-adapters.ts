import type { NetworkAdapter } from '@stagelink/core';
import { invalidArgument, notFound } from '../refusal.js';

const MAC = /^[0-9A-F]{2}([-:])[0-9A-F]{2}(?:\1[0-9A-F]{2}){4}$/i;
const DOTTED_DECIMAL = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** `00-1a-2b-3c-4d-5e` and `00:1A:2B:3C:4D:5E` are the same adapter: upper case with hyphens, or undefined. */
export function normaliseMac(text: string): string | undefined {
  return MAC.test(text.trim()) ? text.trim().toUpperCase().replace(/:/g, '-') : undefined;
}

export function isDottedDecimal(text: string): boolean {
  const parts = DOTTED_DECIMAL.exec(text)?.slice(1);
  return parts !== undefined && parts.every((part) => Number(part) <= 255);
}

/** Network adapters by MAC. POST of the whole list replaces it (the spec does not say replace or merge). */
export class NetworkAdapters {
  #adapters: NetworkAdapter[];

  constructor(adapters: readonly NetworkAdapter[]) {
    this.#adapters = adapters.map(checkAdapter);
  }

  list(): NetworkAdapter[] {
    return this.#adapters.map((adapter) => ({ ...adapter }));
  }

  get(mac: string): NetworkAdapter {
    return { ...this.#find(mac) };
  }

  replace(adapters: readonly NetworkAdapter[]): void {
    const checked = adapters.map(checkAdapter);
    const macs = checked.map((adapter) => adapter.mac);
    const twice = macs.find((mac, index) => macs.indexOf(mac) !== index);
    if (twice) throw invalidArgument(`MAC ${twice} appears twice in the list: each adapter has its own MAC.`);
    this.#adapters = checked;
  }

  /** The MAC of the path finds the adapter; a body with another MAC is refused: a MAC belongs to its hardware. */
  update(mac: string, adapter: NetworkAdapter): void {
    const existing = this.#find(mac);
    const checked = checkAdapter(adapter);
    if (checked.mac !== existing.mac) {
      throw invalidArgument(`The body's MAC ${adapter.mac} differs from the path's ${mac}: the MAC of an adapter cannot change.`);
    }
    Object.assign(existing, checked);
  }

  #find(mac: string): NetworkAdapter {
    const wanted = normaliseMac(mac);
    const adapter = wanted && this.#adapters.find((candidate) => candidate.mac === wanted);
    if (!adapter) throw notFound(`No network adapter with MAC ${mac}.`);
    return adapter;
  }
}

/** Checks the formats of section 2 and writes the MAC in its canonical form. */
function checkAdapter(adapter: NetworkAdapter): NetworkAdapter {
  const mac = normaliseMac(adapter.mac);
  if (!mac) throw invalidArgument(`MAC "${adapter.mac}" is not six hex pairs separated by hyphens (00-1A-2B-3C-4D-5E).`);
  for (const field of ['ip', 'netmask'] as const) {
    if (!isDottedDecimal(adapter[field])) throw invalidArgument(`${field} "${adapter[field]}" of adapter ${mac} is not dotted decimal (10.0.0.5).`);
  }
  return { name: adapter.name, ip: adapter.ip, mac, netmask: adapter.netmask };
}
