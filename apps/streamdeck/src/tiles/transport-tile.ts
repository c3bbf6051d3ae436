/**
 * The transport key: fires its cue on press, or once held down a moment when the key is set to "hold to fire"
 * (OK when the server took it, an alert when it did not or when the key was let go too soon), and shows the
 * cue's name, green with a play mark while its transport plays. Whether it plays comes from the transport list,
 * polled gently and shared by every key and dial of the host, and is drawn in the face: the plugin never switches
 * the key's manifest state (its two named states are for multi-action steps of an engage key to choose).
 * Cues go through the server's cue queue, so presses land in the order they were made; a cue still out after a
 * moment shows as sending, one whose answer came late says for a while whether it landed or nobody can tell
 * (core never sends it twice), and one that provably never left (it waited too long behind others, say) says
 * NOT SENT: what became of it is core's rule (cueFateOf). A command the director's own description lacks is
 * refused unsent by core: the key then says N/A, with core's reason in the log, until it is set again.
 */
import { reasonOf, StagelinkError } from '@stagelink/core';
import { commandWord, cueFace, cueStateWord, lateCueFace, outcomeWords, type CueView, type TransportActivity } from '../render/cue-face.js';
import { commandNotOfferedFace, setupFace, waitingFace } from '../render/faces.js';
import type { HostChoice, TransportKeySettings } from '../settings.js';
import { fireCue, readCue, type CueReading } from '../state/cues/cue.js';
import { isLinkDown, largeAnswersFail } from '../state/connection/link.js';
import type { TransportList } from '../state/connection/server-pool.js';
import type { PollState } from '../state/connection/shared-poll.js';
import { activityOf, asTransportList, engagedOf } from '../state/cues/transport-activity.js';
import { keyOutcomeOf, type KeyOutcome } from '../state/cues/key-outcome.js';
import { hostProblem } from './host-binding.js';
import { KeyOutcomes, OUTCOME_SHOWN_MS, type OutcomeSlot, type RecalledOutcome } from './key-outcomes.js';
import type { KeySurface, TileContext } from './tile.js';
import { TileBase } from './tile-base.js';
import { logRoutine } from '../logging.js';

/** A cue answered sooner than this shows nothing extra; one still out says it is sending. */
export const SENDING_FACE_DELAY_MS = 150;
/**
 * How long a press made before the global settings have arrived (just after the plugin started) waits for them:
 * as long as a cue may wait behind others.
 */
export const PRESS_WAITS_FOR_HOST_MS = 3000;
/** How long a "hold to fire" key must stay down before its cue goes. */
export const HOLD_TO_FIRE_MS = 600;

/** What the log says after the cue's name and server. */
const OUTCOME_LOG: Record<KeyOutcome, string> = {
  landed: 'landed late; it was not sent again.',
  unknown: 'outcome unknown (check the transport before pressing again); it was not sent again.',
  'not-sent': 'not sent (it never left: pressing again cannot repeat it).',
};

export class TransportTile extends TileBase<TransportKeySettings> {
  #reading: CueReading = { ok: false, label: 'TRANSPORT', problem: 'Choose a command.' };
  #hostProblem: string | undefined;
  #holdToFire = false;
  #titled = false;
  #ownIcon = false;
  /** The title the plugin set on the key; undefined while the operator's title (or none) shows. */
  #title: string | undefined;
  #titleSet = false;
  #holdTimer: NodeJS.Timeout | undefined;
  /** A press made while the global settings were on their way: it fires once they are in. */
  #pressWaiting: { step: number | undefined; timer: NodeJS.Timeout } | undefined;
  /** Cues of this key given to the lane and not settled yet. */
  #cuesOut = 0;
  #sendingTimer: NodeJS.Timeout | undefined;
  #showSending = false;
  /** What the key's latest cue did, while the key says so (LANDED LATE, OUTCOME UNKNOWN, NOT SENT). */
  #late: KeyOutcome | undefined;
  #lateTimer: NodeJS.Timeout | undefined;
  /** Why the director refused the key's command unsent (its description lacks it); cleared when the key is set again. */
  #notOffered: string | undefined;
  /** Where the key's outcomes are kept: the registry's, so they outlive this tile, or the tile's own. */
  readonly #outcomes: OutcomeSlot;

  constructor(
    private readonly surface: KeySurface,
    context: TileContext,
  ) {
    super((svg) => surface.setImage(svg), context);
    this.#outcomes = context.outcome ?? new KeyOutcomes(OUTCOME_SHOWN_MS, (_, outcome) => this.showOutcome(outcome)).slot('this key');
    // The key is back (a page flip) while its last cue's outcome is still worth showing: it shows it for the rest.
    const recalled = this.#outcomes.recall();
    if (recalled) this.#showLate(recalled);
  }

  showOutcome(outcome: RecalledOutcome | undefined): void {
    if (!this.disposed) this.#showLate(outcome);
  }

  protected get subject(): string {
    return `${labelOf(this.#reading)} key`;
  }

  configure(settings: TransportKeySettings, host: HostChoice): void {
    if (this.disposed) return;
    this.#reading = readCue(settings);
    this.#notOffered = undefined;
    this.#holdToFire = settings.hold === true;
    this.#ownIcon = settings.ownIcon === true;
    const binding = this.binding.bind(host);
    if (binding.kind !== 'bound') {
      this.unwatch();
      this.#hostProblem = hostProblem(binding);
      this.#render({ status: 'connecting' });
      if (this.#hostProblem) this.#firePressWaiting();
      return;
    }
    this.#hostProblem = undefined;
    // Reads the director's description once per client, so that core refuses a command it lacks unsent and the
    // key can say so; a director without one (or out of reach now) changes nothing here.
    if (this.#reading.ok) binding.lease.server.describe().catch(() => undefined);
    this.keepFollowing(binding, binding.lease.transports, (state) => this.#render(state), this.context.visible && this.#reading.ok);
    this.#firePressWaiting();
  }

  /** The host is known now (or known to be missing): a press that waited for it goes, or is refused. */
  #firePressWaiting(): void {
    const waiting = this.#pressWaiting;
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.#pressWaiting = undefined;
    this.#fire(waiting.step);
  }

  /**
   * The key went down: fires the cue, or (hold to fire) starts waiting for it to be held long enough. A key in a
   * multi-action fires at once: a multi-action has no holding.
   */
  press(step?: number): void {
    if (!this.#holdToFire || !this.context.visible) {
      this.#fire(step);
      return;
    }
    clearTimeout(this.#holdTimer);
    this.#holdTimer = setTimeout(() => {
      this.#holdTimer = undefined;
      this.#fire();
    }, HOLD_TO_FIRE_MS);
  }

  /** An operator's title is drawn at the top of the key: the face leaves that place to it. */
  titleOnTop(onTop: boolean): void {
    if (onTop === this.#titled) return;
    this.#titled = onTop;
    this.#rerender();
  }

  /** The key went up: a "hold to fire" key let go too soon sends nothing and says so. */
  release(): void {
    if (!this.#holdTimer) return;
    clearTimeout(this.#holdTimer);
    this.#holdTimer = undefined;
    logRoutine(this.context.logger, `${labelOf(this.#reading)} not sent: hold the key for ${HOLD_TO_FIRE_MS / 1000} s to fire it.`);
    this.surface.showAlert();
  }

  /** Fires the cue. Every outcome ends in OK or an alert on the key; nothing is thrown. */
  #fire(step?: number): void {
    const reading = this.#reading;
    const lease = this.binding.lease;
    if (reading.ok && !lease && this.#hostProblem === undefined) {
      // Just after start-up the global settings (the host) may still be on their way: the press waits for them.
      clearTimeout(this.#pressWaiting?.timer);
      const timer = setTimeout(() => {
        this.#pressWaiting = undefined;
        this.context.logger.warn(`Cue not sent: the plugin's settings (the media server address) did not arrive within ${PRESS_WAITS_FOR_HOST_MS / 1000} s.`);
        this.surface.showAlert();
      }, PRESS_WAITS_FOR_HOST_MS);
      this.#pressWaiting = { step, timer };
      return;
    }
    if (!reading.ok || !lease) {
      this.context.logger.warn(`Cue not sent: ${reading.ok ? (this.#hostProblem ?? 'no media server set') : reading.problem}`);
      this.surface.showAlert();
      return;
    }
    const { cue } = reading;
    this.#outcomes.forget();
    this.#cueGiven();
    lease.cues.send(() => fireCue(lease.server, cue, undefined, step)).then(
      () => {
        this.#cueSettled();
        this.#notOffered = undefined;
        this.surface.showOk();
        lease.transports.refresh();
      },
      (error: unknown) => {
        this.#cueSettled();
        if (error instanceof StagelinkError && error.code === 'STAGELINK_ERR_NOT_DESCRIBED') {
          this.#notOffered = reasonOf(error);
          this.context.logger.warn(`${cue.label} ${cue.name} on ${lease.origin}: ${this.#notOffered}`);
          this.surface.showAlert();
          this.#rerender();
          return;
        }
        const outcome = keyOutcomeOf(error);
        if (!outcome) {
          this.context.logger.warn(`${cue.label} ${cue.name} on ${lease.origin} failed: ${reasonOf(error)}`);
          this.surface.showAlert();
          return;
        }
        this.context.logger.warn(`${cue.label} ${cue.name} on ${lease.origin}: ${OUTCOME_LOG[outcome]} ${reasonOf(error)}`);
        if (outcome === 'landed') this.surface.showOk();
        else this.surface.showAlert();
        // Kept by key: a page flip may have replaced this tile by now, and the key's tile on screen shows it.
        this.#outcomes.remember(outcome);
        if (outcome !== 'not-sent') lease.transports.refresh();
      },
    );
  }

  protected override stop(): void {
    clearTimeout(this.#sendingTimer);
    clearTimeout(this.#holdTimer);
    clearTimeout(this.#lateTimer);
    clearTimeout(this.#pressWaiting?.timer);
    this.#pressWaiting = undefined;
    this.#late = undefined;
    super.stop();
  }

  /** Says what the key's last cue did for a while (undefined: back to the cue's own face at once). */
  #showLate(recalled: RecalledOutcome | undefined): void {
    clearTimeout(this.#lateTimer);
    this.#lateTimer = undefined;
    const changed = recalled?.outcome !== this.#late;
    this.#late = recalled?.outcome;
    if (recalled) {
      this.#lateTimer = setTimeout(() => {
        this.#lateTimer = undefined;
        this.#late = undefined;
        this.#rerender();
      }, recalled.leftMs);
    }
    if (changed) this.#rerender();
  }

  #render(state: PollState<TransportList>): void {
    if (this.disposed) return;
    const reading = this.#reading;
    const problem = reading.ok ? this.#hostProblem : reading.problem;
    const label = commandWord(labelOf(reading));
    if (problem) {
      this.reasons.tell(problem, true);
      this.#show(setupFace(label), 'SET UP');
      return;
    }
    // The list's answer stops part way: the key keeps its cue face (cues are small and still go) and says MTU?.
    if (state.status === 'offline' && largeAnswersFail(state.error)) this.reasons.tell(reasonOf(state.error));
    else this.reasons.clear();
    if (!reading.ok) return;
    if (!this.binding.lease) {
      this.#show(waitingFace(label, 'loading'), undefined);
      return;
    }
    if (this.#notOffered !== undefined && !this.#showSending) {
      this.#show(commandNotOfferedFace(label), 'N/A');
      return;
    }
    if (this.#late && !this.#showSending) {
      this.#show(lateCueFace(this.#late, this.#titled), outcomeWords(this.#late));
      return;
    }
    const { cue } = reading;
    const activity = activityFrom(state, cue.transportName);
    const list = state.status === 'online' ? asTransportList(state.value) : undefined;
    const engaged = cue.command === 'engaged' && list ? engagedOf(list, cue.transportName) : undefined;
    const view: CueView = {
      command: cue.label,
      name: cue.name,
      transport: cue.transportName,
      activity,
      sending: this.#showSending,
      titled: this.#titled,
      ...(engaged === undefined ? {} : { engaged }),
    };
    this.#show(cueFace(view), cueStateWord(view));
  }

  /**
   * Shows `face`; on a key with the operator's own icon, which the app shows instead of any face, `word` (the
   * state, if any) goes into the key's title for as long as there is one. Otherwise the title is the operator's.
   */
  #show(face: string, word: string | undefined): void {
    this.presenter.show(face);
    if (!this.context.visible || !this.surface.setTitle) return;
    const title = this.#ownIcon ? word : undefined;
    // The app keeps a title the plugin set while the key was away (a page flip): a new tile sets its own once.
    if (this.#titleSet && title === this.#title) return;
    this.#titleSet = true;
    this.#title = title;
    this.surface.setTitle(title);
  }

  #cueGiven(): void {
    this.#cuesOut += 1;
    this.#sendingTimer ??= setTimeout(() => {
      this.#sendingTimer = undefined;
      if (this.#cuesOut === 0) return;
      this.#showSending = true;
      this.#rerender();
    }, SENDING_FACE_DELAY_MS);
  }

  #cueSettled(): void {
    this.#cuesOut -= 1;
    if (this.#cuesOut > 0) return;
    clearTimeout(this.#sendingTimer);
    this.#sendingTimer = undefined;
    if (!this.#showSending) return;
    this.#showSending = false;
    this.#rerender();
  }

  #rerender(): void {
    const lease = this.binding.lease;
    if (lease) this.#render(lease.transports.state);
  }
}

function labelOf(reading: CueReading): string {
  return reading.ok ? reading.cue.label : reading.label;
}

function activityFrom(state: PollState<TransportList>, transport: string): TransportActivity {
  switch (state.status) {
    case 'connecting':
      return 'unknown';
    case 'offline':
      if (isLinkDown(state.error)) return 'no-link';
      return largeAnswersFail(state.error) ? 'large-answers-fail' : 'unknown';
    case 'online': {
      const list = asTransportList(state.value);
      return list ? activityOf(list, transport) : 'unknown';
    }
  }
}
