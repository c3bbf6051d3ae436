/**
 * A stand-in for Companion, built on `@companion-module/base/host-api`'s InstanceContext (Companion itself is not
 * in the npm registry): it constructs the packed module's class with this context, calls `init` with a config and
 * secrets, runs actions and learn callbacks as Companion does, places feedbacks and checks them when the module
 * asks, and records every definition, variable value, feedback result, status and log line.
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
  InstanceStatus,
  InstanceTypes,
  JsonObject,
  JsonValue,
  LogLevel,
} from '@companion-module/base';
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
}

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
  /** Values set for a variable the module never defined (Companion refuses those). */
  readonly undefinedVariables: string[] = [];
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
  async start({ config, secrets = {}, label }: StartOptions): Promise<this> {
    if (label !== undefined) this.label = label;
    globalThis.COMPANION_LOGGER = (_source, level, message) => this.logs.push({ level, message });
    this.#instance = new this.module.ModuleClass(this);
    await this.#instance.init(config, true, secrets);
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
    this.presets = { structure, presets };
  }

  setVariableDefinitions(variables: CompanionVariableDefinitions): void {
    this.variableDefinitions = variables;
  }

  setVariableValues(values: CompanionVariableValues): void {
    for (const [id, value] of Object.entries(values)) {
      if (!Object.hasOwn(this.variableDefinitions, id)) this.undefinedVariables.push(id);
      this.variables.set(id, value);
      this.variableHistory.push({ id, value });
    }
    this.#tell({ kind: 'variables', values });
  }

  getVariableValue<T extends string>(id: T): CompanionVariableValue {
    return this.variables.get(id);
  }

  sharedUdpSocketJoin(): Promise<string> {
    return Promise.reject(new Error('This module uses no shared UDP socket.'));
  }

  sharedUdpSocketLeave(): Promise<void> {
    return Promise.resolve();
  }

  sharedUdpSocketSend(): Promise<void> {
    return Promise.reject(new Error('This module uses no shared UDP socket.'));
  }

  // ---- what a user does ------------------------------------------------------------------------------------

  action(actionId: string): CompanionActionDefinition {
    const definition = this.actions[actionId];
    if (!definition) throw new Error(`The module defines no action "${actionId}".`);
    return definition;
  }

  /** Presses a button with this action, as Companion runs it: its callback with the options as given. */
  async runAction(actionId: string, options: Options = {}): Promise<void> {
    const event = { id: `action-${(nextId += 1)}`, controlId: 'bank:1', actionId, options, surfaceId: 'emulator' };
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

  #check(placed: PlacedFeedback): void {
    const definition = this.feedbacks[placed.feedbackId];
    if (!definition) return;
    const event = { type: definition.type, id: placed.id, controlId: 'bank:1', feedbackId: placed.feedbackId, options: placed.options, previousOptions: null };
    Promise.resolve()
      .then(() => definition.callback(event, { type: 'feedback' }))
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
