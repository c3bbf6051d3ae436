/**
 * The Companion module `stagelink-mediaserver`: one connection to a media-server session through stagelink's core.
 * Companion constructs this class with its host context and calls init, configUpdated and destroy; everything
 * else happens in the callbacks of the definitions set here. Changes from the server are gathered and shown once
 * per turn of the event loop: variables that changed, the feedbacks that may have, and the connection status.
 */
import {
  InstanceBase,
  InstanceStatus,
  type CompanionActionDefinitions,
  type CompanionActionSchema,
  type CompanionAdvancedFeedbackDefinition,
  type CompanionBooleanFeedbackDefinition,
  type CompanionFeedbackSchema,
  type CompanionOptionValues, type CompanionFeedbackDefinitions, type CompanionVariableValues, type DropdownChoice, type SomeCompanionConfigField } from '@companion-module/base';
import { AuthError, InvalidInputError, reasonOf, type SmcMap } from '@stagelink/core';
import { configFields, DEFAULT_FRAME_RATE, type ModuleConfig, type ModuleSecrets, readConfig } from './config.js';
import { Arming } from './desk/arming.js';
import { failureOf } from './desk/failure.js';
import { CLOCK_FEEDBACK_IDS, CLOCK_TICK_MS, clockFeedbackInputs, clockValues, clockVariableDefinitions, type ClockFeedbackId } from './desk/clock.js';
import { changedFeedbacks, feedbackInputs, type FeedbackInputs } from './desk/feedback-inputs.js';
import { clockFeedbackDefinitions, feedbackDefinitions, FEEDBACK_IDS } from './desk/feedbacks.js';
import { markNotOffered } from './desk/offered-actions.js';
import { presetDefinitions } from './desk/presets.js';
import { renderStreamActions } from './desk/renderstream-actions.js';
import { HARDWARE_ACTION_IDS, showActions } from './desk/show-actions.js';
import { transportActions } from './desk/transport-actions.js';
import { type LinkWord, variableDefinitions, variableValues } from './desk/variables.js';
import { type ConnectionStatus, connectionStatus, LIVE_DOWN_MESSAGE, linkStatus, MTU_MESSAGE } from './show/connection-status.js';
import { playStateKey } from './show/play-state.js';
import { Show } from './show/show.js';

export { UpgradeScripts } from './upgrades.js';

interface ModuleTypes {
  config: ModuleConfig;
  secrets: ModuleSecrets;
  actions: Record<string, CompanionActionSchema<CompanionOptionValues>>;
  feedbacks: Record<string, CompanionFeedbackSchema<CompanionOptionValues>>;
  variables: CompanionVariableValues;
}

export default class StagelinkInstance extends InstanceBase<ModuleTypes> {
  #show: Show | undefined;
  /** The last change of settings (start, new settings, destroy): the next one waits for it. */
  #lifecycle: Promise<void> = Promise.resolve();
  #destroyed = false;
  #problem: string | undefined;
  #frameRate = DEFAULT_FRAME_RATE;
  /** Each machine's management controller from the settings: where the hardware actions may go. */
  #smcs: SmcMap = {};
  readonly #arming = new Arming(() => this.#schedule(false));
  #sent: CompanionVariableValues = {};
  #status: ConnectionStatus | undefined;
  #linkStatus: ConnectionStatus | undefined;
  #flush: NodeJS.Immediate | undefined;
  #structure = false;
  /** Reads the show clocks a few times a second: they move between the director's updates. */
  #clockTimer: NodeJS.Timeout | undefined;
  #clockInputs: Partial<Record<ClockFeedbackId, string>> = {};
  /** What each feedback type read at the last check: only the types whose inputs changed are checked again. */
  #feedbackInputs: Partial<FeedbackInputs> = {};
  /**
   * Checks every feedback type on every change, as releases up to 0.2 did: set by the feedback-check benchmark
   * (STAGELINK_COMPANION_CHECK_ALL=1) to measure the old way beside the new in one run; never by a user.
   */
  readonly #checkEveryType = process.env['STAGELINK_COMPANION_CHECK_ALL'] === '1';
  /** Every transport's play state at the last look: the live stream changes it between the other changes. */
  #playState = '';
  /**
   * Machines whose management controller refused the account, at a hardware action or a power read, with its
   * words: the status says so until a hardware action on that machine goes through, or the settings change. A
   * power read that answers clears only a refusal a power read gave: shipping SMCs answer reads without the
   * account, so it says nothing of an action's refusal.
   */
  readonly #refusedLogins = new Map<string, { message: string; byRead: boolean }>();

  async init(config: ModuleConfig, _isFirstInit: boolean, secrets: ModuleSecrets): Promise<void> {
    return this.#inTurn(() => this.#start(config, secrets));
  }

  async configUpdated(config: ModuleConfig, secrets: ModuleSecrets): Promise<void> {
    // An arm was for the old settings' machines: a second press must never fire at what the new ones name.
    this.#arming.clear();
    return this.#inTurn(async () => {
      await this.#stop();
      this.#start(config, secrets);
    });
  }

  async destroy(): Promise<void> {
    this.#destroyed = true;
    this.#arming.close();
    return this.#inTurn(async () => this.#stop());
  }

  getConfigFields(): SomeCompanionConfigField[] {
    return configFields();
  }

  /**
   * Runs a change of settings after the ones before it have finished: Companion does not wait for one before it
   * sends the next, and a show started while an older one still closes would be overwritten and never closed.
   */
  async #inTurn(change: () => void | Promise<void>): Promise<void> {
    this.#lifecycle = this.#lifecycle
      .then(change)
      .catch((error: unknown) => this.log('error', `Changing the connection failed: ${reasonOf(error)}`));
    return this.#lifecycle;
  }

  #start(config: ModuleConfig, secrets: ModuleSecrets | undefined): void {
    // A change queued before destroy must not start a show no one will close.
    if (this.#destroyed) return;
    const reading = readConfig(config, secrets);
    if (!reading.ok) return this.#badConfig(reading.problem);
    let show: Show;
    try {
      show = new Show({
        server: reading.server,
        logger: { warn: (message) => this.log('warn', message), debug: (message) => this.log('debug', message) },
        onChange: (structure) => this.#schedule(structure),
        onSmcLogin: (hostname, refusal) => this.#onSmcRead(hostname, refusal),
        hardwareEveryMs: reading.hardwareEveryMs,
      });
    } catch (error) {
      // Core checks the settings again when it builds the client: whatever it refuses is a setting to fix.
      return this.#badConfig(reasonOf(error));
    }
    this.#problem = undefined;
    this.#frameRate = reading.frameRate;
    this.#smcs = reading.server.smcs;
    this.#report({ status: InstanceStatus.Connecting, message: `Looking for ${reading.server.host}` });
    this.#show = show;
    this.#define();
    show.start();
    this.#clockTimer = setInterval(() => this.#tickClocks(), CLOCK_TICK_MS);
  }

  #badConfig(problem: string): void {
    this.#problem = problem;
    this.#smcs = {};
    this.#define();
    this.#report({ status: InstanceStatus.BadConfig, message: problem });
  }

  async #stop(): Promise<void> {
    if (this.#flush) clearImmediate(this.#flush);
    this.#flush = undefined;
    if (this.#clockTimer) clearInterval(this.#clockTimer);
    this.#clockTimer = undefined;
    this.#clockInputs = {};
    this.#feedbackInputs = {};
    this.#playState = '';
    this.#refusedLogins.clear();
    const show = this.#show;
    this.#show = undefined;
    this.#sent = {};
    await show?.close();
  }

  /** The show, or why there is none: an action on a connection not set up says what to fix. */
  #current = (): Show => {
    if (this.#show) return this.#show;
    throw new InvalidInputError(`The connection is not set up: ${this.#problem ?? 'enter the media server\u2019s address'}.`);
  };

  #schedule(structure: boolean): void {
    this.#structure ||= structure;
    this.#flush ??= setImmediate(() => {
      this.#flush = undefined;
      const redefine = this.#structure;
      this.#structure = false;
      try {
        if (redefine) {
          this.#define();
          // New definitions (new choices, new machines): every type is checked once with them.
          this.#feedbackInputs = {};
        }
        this.#showValues();
      } catch (error) {
        this.log('error', `Showing the server's state failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
  }

  #define(): void {
    const show = this.#show;
    const transports = [...(show?.transports.values() ?? [])];
    const machines = [...(show?.machines.values() ?? [])];
    const byName = (name: string): DropdownChoice<string> => ({ id: name, label: name });
    const choices = {
      transports: transports.map(({ name }) => byName(name)),
      multitransports: (show?.multitransports ?? []).map(({ name, members }) => ({ id: name, label: `${name} (multitransport: ${members.join(', ')})` })),
      tracks: (show?.tracks.value ?? []).map(({ name }) => byName(name)),
      machines: machines.map(({ name }) => byName(name)),
      hardwareMachines: this.#hardwareMachines(machines.map(({ hostname }) => hostname)),
    };
    const layers = show?.renderStream.layers ?? [];
    const layerChoices = { layers: layers.map(({ layer }) => byName(layer.name)), layerIds: layers.map(({ id, layer }) => ({ id, label: layer.name })) };
    const actions = {
      ...transportActions(this.#current, choices),
      ...showActions(this.#current, this.#arming, choices, () => this.#smcs),
      ...renderStreamActions(this.#current, this.#arming, layerChoices),
    };
    const offered = show?.offered;
    this.setActionDefinitions(this.#guardActions(offered ? markNotOffered(actions, (spec) => offered.notOffered(spec)) : actions));
    const smcMachines = Object.keys(this.#smcs).map(byName);
    const transportIds = transports.map(({ id, name }) => ({ id, label: name }));
    const feedbackChoices = { transports: [...choices.transports, ...choices.multitransports], transportIds, machines: machines.map(({ id, name }) => ({ id, label: name })), machineNames: choices.machines, smcMachines, ...layerChoices };
    this.setFeedbackDefinitions(
      this.#guardFeedbacks({
        ...feedbackDefinitions(this.#current, this.#arming, feedbackChoices, () => this.#link(), () => this.#frameRate),
        ...clockFeedbackDefinitions(this.#current, feedbackChoices),
      }),
    );
    if (show) {
      const definitions = { ...variableDefinitions(show), ...clockVariableDefinitions(show) };
      this.setVariableDefinitions(definitions);
      // Companion forgets the value of an id it no longer defines (and shows a new one blank): what was sent for
      // an id defined no more must be sent again should the id return.
      for (const id of Object.keys(this.#sent)) if (!(id in definitions)) delete this.#sent[id];
      const { structure, presets } = presetDefinitions(show, this.label);
      this.setPresetDefinitions(structure, presets);
    } else {
      this.setVariableDefinitions({ director: { name: 'Director of the session' }, link: { name: 'Link to the server' }, health: { name: 'Health of the session' } });
      this.setPresetDefinitions([], {});
    }
  }

  /**
   * The hardware actions' machines by hostname: the session's, and those with a management controller in the
   * settings; a session machine without one says so, since its hardware actions are refused.
   */
  #hardwareMachines(sessionHostnames: string[]): DropdownChoice<string>[] {
    const configured = new Set(Object.keys(this.#smcs).map((hostname) => hostname.toLowerCase()));
    const choices = sessionHostnames.map((hostname) => ({ id: hostname, label: configured.has(hostname.toLowerCase()) ? hostname : `${hostname} (no SMC in the settings)` }));
    const listed = new Set(sessionHostnames.map((hostname) => hostname.toLowerCase()));
    return [...choices, ...Object.keys(this.#smcs).filter((hostname) => !listed.has(hostname.toLowerCase())).map((hostname) => ({ id: hostname, label: hostname }))];
  }

  /** Every action says in the log what failed, in core's words, and lets Companion know it failed. */
  #guardActions(actions: CompanionActionDefinitions): CompanionActionDefinitions {
    return Object.fromEntries(
      Object.entries(actions).map(([id, action]) => [
        id,
        action && {
          ...action,
          callback: async (event, context) => {
            const named = HARDWARE_ACTION_IDS.has(id) && typeof event.options['machine'] === 'string' ? event.options['machine'].trim() : undefined;
            const machine = named?.toLowerCase();
            try {
              await action.callback(event, context);
              if (machine !== undefined && this.#refusedLogins.delete(machine)) {
                // The account is taken now: a power read stopped by a refusal goes again.
                this.#show?.powerOf(machine)?.refresh();
                this.#schedule(false);
              }
            } catch (error) {
              this.log('warn', failureOf(action.name, error));
              if (named !== undefined && error instanceof AuthError) {
                this.#refusedLogins.set(named.toLowerCase(), { message: refusedLoginMessage(named, error), byRead: false });
                this.#schedule(false);
              }
              throw error;
            }
          },
        },
      ]),
    );
  }

  /** What a power read said of a machine's account: a refusal shows in the status; an answer clears a read's refusal. */
  #onSmcRead(hostname: string, refusal: AuthError | undefined): void {
    const machine = hostname.toLowerCase();
    if (refusal) {
      if (this.#refusedLogins.has(machine)) return;
      this.log('warn', `Reading the power of ${hostname}: ${reasonOf(refusal)} Its power is not read again until a hardware action on it goes through or the settings change.`);
      this.#refusedLogins.set(machine, { message: refusedLoginMessage(hostname, refusal), byRead: true });
    } else if (this.#refusedLogins.get(machine)?.byRead === true) {
      this.#refusedLogins.delete(machine);
    } else {
      return;
    }
    this.#schedule(false);
  }

  /** A feedback that cannot be worked out shows nothing: it never throws into Companion. */
  #guardFeedbacks(feedbacks: CompanionFeedbackDefinitions): CompanionFeedbackDefinitions {
    const guarded: CompanionFeedbackDefinitions = {};
    for (const [id, feedback] of Object.entries(feedbacks)) {
      if (!feedback) continue;
      if (feedback.type === 'boolean') {
        const check: CompanionBooleanFeedbackDefinition['callback'] = async (event, context) => (this.#show ? Boolean(await feedback.callback(event, context)) : false);
        guarded[id] = { ...feedback, callback: check };
      } else if (feedback.type === 'advanced') {
        const style: CompanionAdvancedFeedbackDefinition['callback'] = async (event, context) => (this.#show ? feedback.callback(event, context) : {});
        guarded[id] = { ...feedback, callback: style };
      } else {
        guarded[id] = feedback;
      }
    }
    return guarded;
  }

  #link(): LinkWord {
    const status = this.#linkStatus;
    if (!status || status.status === InstanceStatus.Connecting) return 'connecting';
    if (status.status === InstanceStatus.Ok) return 'ok';
    if (status.message?.startsWith(MTU_MESSAGE)) return 'mtu';
    if (status.message?.startsWith(LIVE_DOWN_MESSAGE)) return 'live down';
    return status.status === InstanceStatus.ConnectionFailure || status.status === InstanceStatus.BadConfig ? 'no link' : 'ok';
  }

  #showValues(): void {
    const show = this.#show;
    if (!show) return;
    const link = linkStatus({
      reads: [show.session.state, show.health.state, show.transportList.state],
      linkDown: show.server.linkDown,
      live: show.server.live.status,
      liveWasUp: show.linkWasUp,
    });
    this.#report(connectionStatus(link, this.#refusedLogins.values().next().value?.message), link);
    this.#playState = playStateKey(show);
    const linkWord = this.#link();
    this.#send(variableValues(show, this.#frameRate, linkWord));
    if (this.#checkEveryType) return this.checkFeedbacks(...FEEDBACK_IDS);
    const inputs = feedbackInputs(show, linkWord, this.#arming.version, this.#frameRate);
    const [first, ...rest] = changedFeedbacks(this.#feedbackInputs, inputs);
    this.#feedbackInputs = inputs;
    if (first) this.checkFeedbacks(first, ...rest);
  }

  /** Only the variables whose value changed go to Companion. */
  #send(values: CompanionVariableValues): void {
    const changed: CompanionVariableValues = {};
    for (const [id, value] of Object.entries(values)) if (this.#sent[id] !== value) changed[id] = value;
    if (Object.keys(changed).length > 0) {
      Object.assign(this.#sent, changed);
      this.setVariableValues(changed);
    }
  }

  /** The show clocks now: their changed variables, and a check of the clock feedback types whose inputs changed. */
  #tickClocks(): void {
    const show = this.#show;
    if (!show) return;
    try {
      this.#send(clockValues(show, this.#frameRate));
      // A cue's new playmode or track arrives on the live stream: show it now, not at the next read of the list.
      const playState = playStateKey(show);
      if (playState !== this.#playState) this.#schedule(false);
      const inputs = clockFeedbackInputs(show);
      const changed = CLOCK_FEEDBACK_IDS.filter((id) => this.#clockInputs[id] !== inputs[id]);
      this.#clockInputs = inputs;
      const [first, ...rest] = changed;
      if (first) this.checkFeedbacks(first, ...rest);
    } catch (error) {
      this.log('error', `Showing the show clock failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Shows `status` as the connection's; `link` is the link's alone, which a refused SMC login leaves out. */
  #report(status: ConnectionStatus, link = status): void {
    this.#linkStatus = link;
    if (this.#status?.status === status.status && this.#status.message === status.message) return;
    this.#status = status;
    this.updateStatus(status.status, status.message);
  }
}

function refusedLoginMessage(machine: string, error: AuthError): string {
  return `The management controller of ${machine} refused the account (${reasonOf(error)}): check the SMC user and password in the settings.`;
}
