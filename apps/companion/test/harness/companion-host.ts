/**
 * A stand-in for Companion, built on `@companion-module/base/host-api`'s InstanceContext (Companion itself is not
 * in the npm registry): it constructs the packed module's class with this context, calls `init` with a config and
 * secrets, runs actions and learn callbacks as Companion does, places feedbacks and checks them when the module
 * asks, and records every definition, variable value, feedback result, status and log line.
 *
 * It keeps the rules of Companion's own module host, so a module that passes here behaves there:
 * - values live per variable id: a redefinition deletes the value of every id no longer defined and seeds '' for
 *   each id newly defined; a value for an id that is not defined is dropped;
 * - a status is one of base's `InstanceStatus` values, anything else is refused;
 * - a first init replaces the given config with the fields' defaults (and saves them);
 * - an action runs as `executeAction` runs it and answers `{ success, errorMessage }`;
 * - a preset that names an action or feedback the module does not define is logged and dropped, never kept.
 */
import type {
  CompanionActionDefinition,
  CompanionActionDefinitions,
  CompanionFeedbackDefinitions,
  CompanionPresetDefinitions,
  CompanionPresetSection,
  CompanionVariableDefinitions,
  CompanionVariableValue,
  CompanionVariableValues,
  InstanceBase,
  InstanceTypes,
  JsonObject,
  JsonValue,
  LogLevel,
} from '@companion-module/base';
import { InstanceStatus } from '@companion-module/base';
import type { InstanceContext } from '@companion-module/base/host-api';
import type { PackedModule } from './packed-module.js';

export interface StatusReport {
  /** `ok`, `connecting`, `disconnected`, `bad_config`, `unknown_warning`, ... */
  status: string;
  message: string | null;
}

export interface LogLine {
  level: LogLevel;
  message: string;
}

interface PlacedFeedback {
  id: string;
  feedbackId: string;
  options: Record<string, JsonValue | undefined>;
  /** The last result of its callback; undefined before the first check. */
  result: unknown;
  checks: number;
}

type Options = Record<string, JsonValue | undefined>;

/** What the module did, as it happens: for a listener that times it (the `companion-live` benchmark). */
export type HostEvent =
  | { kind: 'variables'; values: CompanionVariableValues }
  | { kind: 'feedback'; id: string; feedbackId: string; options: Options; result: unknown };

export interface StartOptions {
  config: JsonObject;
  secrets?: JsonObject;
  label?: string;
  /**
   * A connection just added by the user: Companion then replaces the config with the fields' defaults. Off by
   * default: a test starts a connection whose settings were saved.
   */
  firstInit?: boolean;
}

/** What Companion's host answers for one action run. */
export interface ActionResult {
  success: boolean;
  errorMessage: string | undefined;
}

/** Where a pressed action sits, as Companion names it: one button (`controlId`) on one surface. */
export interface PressOptions {
  controlId?: string;
  surfaceId?: string;
}

const STATUS_VALUES: ReadonlySet<string> = new Set(Object.values(InstanceStatus));

let nextId = 0;

export class CompanionHost implements InstanceContext<InstanceTypes> {
  readonly _isInstanceContext = true as const;
  readonly id = `connection-${(nextId += 1)}`;
  label = 'stagelink';
  readonly upgradeScripts: InstanceContext<InstanceTypes>['upgradeScripts'];
  readonly sharedUdpSocketHandlers = new Map();

  actions: CompanionActionDefinitions = {};
  feedbacks: CompanionFeedbackDefinitions = {};
  variableDefinitions: CompanionVariableDefinitions = {};
  presets: { structure: CompanionPresetSection[]; presets: CompanionPresetDefinitions } = { structure: [], presets: {} };
  readonly variables = new Map<string, CompanionVariableValue>();
  /** Every value the module set, in order, for tests of what a variable went through. */
  readonly variableHistory: { id: string; value: CompanionVariableValue }[] = [];
  /** Values set for a variable the module never defined (Companion drops those). */
  readonly undefinedVariables: string[] = [];
  /** Presets Companion's sanitiser would drop, with why. */
  readonly droppedPresets: { id: string; reason: string }[] = [];
  readonly statuses: StatusReport[] = [];
  readonly logs: LogLine[] = [];
  readonly savedConfigs: { config: JsonObject | undefined; secrets: JsonObject | undefined }[] = [];
  /** How many times the module asked for feedbacks to be checked. */
  checkRequests = 0;
  readonly #placed = new Map<string, PlacedFeedback>();
  readonly #watchers = new Set<(event: HostEvent) => void>();
  #instance: InstanceBase<InstanceTypes> | undefined;

  constructor(private readonly module: PackedModule) {
    this.upgradeScripts = module.upgradeScripts as InstanceContext<InstanceTypes>['upgradeScripts'];
  }

  /** Constructs the module with this context and initialises it, as Companion does when a connection is enabled. */
  async start({ config, secrets = {}, label, firstInit = false }: StartOptions): Promise<this> {
    if (label !== undefined) this.label = label;
    globalThis.COMPANION_LOGGER = (_source, level, message) => this.logs.push({ level, message });
    const instance = new this.module.ModuleClass(this);
    this.#instance = instance;
    if (firstInit) {
      // As Companion's host does for a new connection: the fields' defaults, saved, replace what was given.
      const defaults: JsonObject = {};
      const secretDefaults: JsonObject = {};
      for (const field of instance.getConfigFields()) {
        if (!('default' in field)) continue;
        (field.type.startsWith('secret') ? secretDefaults : defaults)[field.id] = field.default as JsonValue;
      }
      this.saveConfig(defaults, secretDefaults);
      await instance.init(defaults, true, secretDefaults);
    } else {
      await instance.init(config, false, secrets);
    }
    return this;
  }

  get instance(): InstanceBase<InstanceTypes> {
    if (!this.#instance) throw new Error('The module is not started: call start() first.');
    return this.#instance;
  }

  /** Tells `listener` of every variable update and every feedback check as it completes; answers a stop function. */
  watch(listener: (event: HostEvent) => void): () => void {
    this.#watchers.add(listener);
    return () => this.#watchers.delete(listener);
  }

  async configUpdated(config: JsonObject, secrets: JsonObject = {}): Promise<void> {
    await this.instance.configUpdated(config, secrets);
  }

  async destroy(): Promise<void> {
    await this.#instance?.destroy();
    this.#instance = undefined;
  }

  /** The status Companion shows now. */
  get status(): StatusReport | undefined {
    return this.statuses.at(-1);
  }

  // ---- what the module calls -------------------------------------------------------------------------------

  saveConfig(config: JsonObject | undefined, secrets: JsonObject | undefined): void {
    this.savedConfigs.push({ config, secrets });
  }

  updateStatus(status: InstanceStatus, message: string | null): void {
    if (!STATUS_VALUES.has(status)) throw new Error(`"${String(status)}" is not a status Companion knows: use one of base's InstanceStatus values.`);
    this.statuses.push({ status, message });
  }

  oscSend(): void {
    throw new Error('This module sends no OSC.');
  }

  recordAction(): void {}

  setActionDefinitions(actions: CompanionActionDefinitions): void {
    this.actions = actions;
  }

  subscribeActions(): void {}
  unsubscribeActions(): void {}

  setFeedbackDefinitions(feedbacks: CompanionFeedbackDefinitions): void {
    this.feedbacks = feedbacks;
    this.checkAllFeedbacks();
  }

  unsubscribeFeedbacks(): void {}

  checkFeedbacks(types: string[]): void {
    this.checkRequests += 1;
    for (const placed of this.#placed.values()) if (types.includes(placed.feedbackId)) this.#check(placed);
  }

  checkAllFeedbacks(): void {
    for (const placed of this.#placed.values()) this.#check(placed);
  }

  checkFeedbacksById(ids: string[]): void {
    for (const id of ids) {
      const placed = this.#placed.get(id);
      if (placed) this.#check(placed);
    }
  }

  setPresetDefinitions(structure: CompanionPresetSection[], presets: CompanionPresetDefinitions): void {
    const kept: CompanionPresetDefinitions = {};
    for (const [id, preset] of Object.entries(presets)) {
      const reason = preset ? this.#presetProblem(preset) : undefined;
      if (reason === undefined) {
        kept[id] = preset;
      } else {
        this.droppedPresets.push({ id, reason });
        this.logs.push({ level: 'warn', message: `preset ${id} dropped: ${reason}` });
      }
    }
    this.presets = { structure, presets: kept };
  }

  setVariableDefinitions(variables: CompanionVariableDefinitions): void {
    this.variableDefinitions = variables;
    const seeded: CompanionVariableValues = {};
    for (const id of Object.keys(variables)) {
      if (this.variables.has(id)) continue;
      this.variables.set(id, '');
      seeded[id] = '';
    }
    for (const id of [...this.variables.keys()]) if (!Object.hasOwn(variables, id)) this.variables.delete(id);
    if (Object.keys(seeded).length > 0) this.#tell({ kind: 'variables', values: seeded });
  }

  setVariableValues(values: CompanionVariableValues): void {
    const kept: CompanionVariableValues = {};
    for (const [id, value] of Object.entries(values)) {
      if (!Object.hasOwn(this.variableDefinitions, id)) {
        this.undefinedVariables.push(id);
        continue;
      }
      kept[id] = value ?? '';
      this.variables.set(id, value ?? '');
      this.variableHistory.push({ id, value });
    }
    this.#tell({ kind: 'variables', values: kept });
  }

  getVariableValue<T extends string>(id: T): CompanionVariableValue {
    return this.variables.get(id);
  }

  async sharedUdpSocketJoin(): Promise<string> {
    return Promise.reject(new Error('This module uses no shared UDP socket.'));
  }

  async sharedUdpSocketLeave(): Promise<void> {
    return Promise.resolve();
  }

  async sharedUdpSocketSend(): Promise<void> {
    return Promise.reject(new Error('This module uses no shared UDP socket.'));
  }

  // ---- what a user does ------------------------------------------------------------------------------------

  action(actionId: string): CompanionActionDefinition {
    const definition = this.actions[actionId];
    if (!definition) throw new Error(`The module defines no action "${actionId}".`);
    return definition;
  }

  /**
   * Runs an action as Companion's host does (`executeAction`): its callback with the options as given, answering
   * whether it succeeded and, when not, the error's message.
   */
  async executeAction(actionId: string, options: Options = {}, { controlId = 'bank:1', surfaceId = 'emulator' }: PressOptions = {}): Promise<ActionResult> {
    const definition = this.actions[actionId];
    if (!definition) return { success: false, errorMessage: `Action definition not found for: ${actionId}` };
    const event = { id: `action-${(nextId += 1)}`, controlId, actionId, options, surfaceId };
    try {
      await definition.callback(event, { type: 'action', setCustomVariableValue: () => undefined });
      return { success: true, errorMessage: undefined };
    } catch (error) {
      return { success: false, errorMessage: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Presses a button with this action: its callback with the options as given; rejects as the callback does. */
  async runAction(actionId: string, options: Options = {}, { controlId = 'bank:1', surfaceId = 'emulator' }: PressOptions = {}): Promise<void> {
    const event = { id: `action-${(nextId += 1)}`, controlId, actionId, options, surfaceId };
    await this.action(actionId).callback(event, { type: 'action', setCustomVariableValue: () => undefined });
  }

  /** Presses "learn" on an action: what the module would write into its options. */
  async learn(actionId: string, options: Options = {}): Promise<Options | undefined> {
    const learn = this.action(actionId).learn;
    if (!learn) throw new Error(`The action "${actionId}" has no learn callback.`);
    const event = { id: `action-${(nextId += 1)}`, controlId: 'bank:1', actionId, options, surfaceId: undefined };
    return (await learn(event, { type: 'action', setCustomVariableValue: () => undefined }));
  }

  /** Puts a feedback on a button; it is checked at once and whenever the module asks. Answers its id. */
  placeFeedback(feedbackId: string, options: Options = {}): string {
    if (!this.feedbacks[feedbackId]) throw new Error(`The module defines no feedback "${feedbackId}".`);
    const placed: PlacedFeedback = { id: `feedback-${(nextId += 1)}`, feedbackId, options, result: undefined, checks: 0 };
    this.#placed.set(placed.id, placed);
    this.#check(placed);
    return placed.id;
  }

  /**
   * Drags a preset onto a button: places each of its feedbacks with its options. Answers them with the style each
   * lays over the button while true, in the preset's order.
   */
  placePreset(presetId: string): { id: string; feedbackId: string; style: unknown }[] {
    const preset = this.presets.presets[presetId];
    if (!preset) throw new Error(`The module offers no preset "${presetId}".`);
    if (preset.type !== 'simple') return [];
    return preset.feedbacks.map(({ feedbackId, options, style }) => ({ id: this.placeFeedback(feedbackId, options as Options), feedbackId, style }));
  }

  /**
   * Runs what a preset's button does on a press (`down`) or a turn of its dial (`rotate_left`, `rotate_right`):
   * the actions of its first step, in order, with the preset's options.
   */
  async operatePreset(presetId: string, how: 'down' | 'rotate_left' | 'rotate_right'): Promise<void> {
    const preset = this.presets.presets[presetId];
    if (!preset || preset.type !== 'simple') throw new Error(`The module offers no button preset "${presetId}".`);
    const actions = preset.steps[0]?.[how] ?? [];
    if (actions.length === 0) throw new Error(`The preset "${presetId}" does nothing on ${how}.`);
    for (const { actionId, options } of actions) await this.runAction(actionId, options as Options, { controlId: `preset:${presetId}` });
  }

  /** How many times a placed feedback was checked. */
  checksOf(id: string): number {
    return this.#placed.get(id)?.checks ?? 0;
  }

  /** The last result of a placed feedback. */
  feedback(id: string): unknown {
    return this.#placed.get(id)?.result;
  }

  /** Waits until `test` gives something other than undefined or false, or fails naming `what`. */
  async waitFor<T>(test: () => T | undefined | false, what: string, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const result = test();
      if (result !== undefined && result !== false) return result;
      if (Date.now() > deadline) throw new Error(`Waited ${timeoutMs} ms for ${what}; status ${JSON.stringify(this.status)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  #tell(event: HostEvent): void {
    for (const watcher of this.#watchers) {
      try {
        watcher(event);
      } catch (error) {
        this.logs.push({ level: 'error', message: `a host watcher threw: ${error instanceof Error ? error.message : String(error)}` });
      }
    }
  }

  /** Why Companion's preset sanitiser would drop this preset: an action or feedback the module does not define. */
  #presetProblem(preset: NonNullable<CompanionPresetDefinitions[string]>): string | undefined {
    if (preset.type !== 'simple') return undefined;
    for (const step of preset.steps) {
      for (const actions of Object.values(step)) {
        if (!Array.isArray(actions)) continue;
        for (const action of actions as { actionId: string }[]) if (!this.actions[action.actionId]) return `no action "${action.actionId}"`;
      }
    }
    for (const feedback of preset.feedbacks) if (!this.feedbacks[feedback.feedbackId]) return `no feedback "${feedback.feedbackId}"`;
    return undefined;
  }

  #check(placed: PlacedFeedback): void {
    const definition = this.feedbacks[placed.feedbackId];
    if (!definition) return;
    const event = { type: definition.type, id: placed.id, controlId: 'bank:1', feedbackId: placed.feedbackId, options: placed.options, previousOptions: null };
    Promise.resolve()
      .then(async () => definition.callback(event, { type: 'feedback' }))
      .then(
        (result) => {
          placed.result = result;
          placed.checks += 1;
          this.#tell({ kind: 'feedback', id: placed.id, feedbackId: placed.feedbackId, options: placed.options, result });
        },
        (error: unknown) => {
          this.logs.push({ level: 'error', message: `feedback ${placed.feedbackId} threw: ${error instanceof Error ? error.message : String(error)}` });
          placed.result = undefined;
        },
      );
  }
}
