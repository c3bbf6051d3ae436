/**
 * Every key on screen, by its Stream Deck context, with its settings: a key is configured when it appears,
 * when its settings change and when the global settings (host, hosts map) change, and disposed when it leaves
 * the screen.
 */
import { reasonOf, type Logger } from '@stagelink/core';
import { asSettings, chooseHost, type GlobalSettings, type JsonObject, type JsonValue, type StoredSearch } from '../settings.js';
import { KeyOutcomes, OUTCOME_SHOWN_MS, type OutcomeSlot } from './key-outcomes.js';
import type { Tile } from './tile.js';

interface Entry {
  tile: Tile;
  settings: JsonObject;
}

export class TileRegistry {
  readonly #entries = new Map<string, Entry>();
  /** Undefined until the app has sent the global settings. */
  #global: GlobalSettings | undefined;
  readonly #globalKnown: Promise<void>;
  #markGlobalKnown!: () => void;
  readonly #outcomes = new KeyOutcomes(OUTCOME_SHOWN_MS, (context, outcome) => {
    const tile = this.#entries.get(context)?.tile;
    if (!tile?.showOutcome) return;
    try {
      tile.showOutcome(outcome);
    } catch (error) {
      this.logger.warn(`Showing the outcome of key ${context} failed: ${reasonOf(error)}`);
    }
  });

  constructor(private readonly logger: Logger) {
    this.#globalKnown = new Promise((resolve) => (this.#markGlobalKnown = resolve));
  }

  /** Resolves once the global settings have arrived, or after `timeoutMs`, whichever comes first. */
  async globalSettingsLoaded(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.#globalKnown, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
  }

  get size(): number {
    return this.#entries.size;
  }

  appear(context: string, settings: unknown, create: () => Tile): void {
    this.disappear(context);
    const entry: Entry = { tile: create(), settings: asSettings(settings) };
    this.#entries.set(context, entry);
    this.#configure(context, entry);
  }

  disappear(context: string): void {
    const entry = this.#entries.get(context);
    if (!entry) return;
    this.#entries.delete(context);
    try {
      entry.tile.dispose();
    } catch (error) {
      this.logger.warn(`Disposing key ${context} failed: ${reasonOf(error)}`);
    }
  }

  settingsChanged(context: string, settings: unknown): void {
    const entry = this.#entries.get(context);
    if (!entry) return;
    entry.settings = asSettings(settings);
    this.#configure(context, entry);
  }

  globalSettingsChanged(settings: unknown): void {
    this.#global = asSettings<GlobalSettings>(settings);
    this.#markGlobalKnown();
    for (const [context, entry] of this.#entries) this.#configure(context, entry);
  }

  /** Where the outcomes of the key `context` are kept: they outlive its tiles. */
  outcomeSlot(context: string): OutcomeSlot {
    return this.#outcomes.slot(context);
  }

  tile(context: string): Tile | undefined {
    return this.#entries.get(context)?.tile;
  }

  /** The host a key talks to: its own setting, else the global one. */
  hostOf(context: string): JsonValue | undefined {
    const choice = chooseHost(this.#entries.get(context)?.settings.host, this.#global);
    return choice.kind === 'host' ? choice.host : undefined;
  }

  /**
   * How the key `context` finds the director, as stored: the global hosts map, and for a key on the global host the
   * backup addresses and DNS-SD with its interface (read them with directorSearchSetting).
   */
  searchOf(context: string): StoredSearch {
    const choice = chooseHost(this.#entries.get(context)?.settings.host, this.#global);
    if (choice.kind === 'host') return { hosts: choice.hosts, backupHosts: choice.backupHosts, dnssd: choice.dnssd, dnssdInterface: choice.dnssdInterface };
    return { hosts: this.#global?.hosts };
  }

  disposeAll(): void {
    for (const context of [...this.#entries.keys()]) this.disappear(context);
  }

  /** One key's failure to configure must not stop the others (a global change reaches them all). */
  #configure(context: string, entry: Entry): void {
    try {
      entry.tile.configure(entry.settings, chooseHost(entry.settings.host, this.#global));
    } catch (error) {
      this.logger.warn(`Configuring key ${context} failed: ${reasonOf(error)}`);
    }
  }
}
