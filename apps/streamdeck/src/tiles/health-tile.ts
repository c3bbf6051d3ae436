/**
 * The health key: the worst severity of the session, or of one machine, from the REST health endpoint
 * polled gently and shared by every health key of the host (the live stream is unreliable for severity,
 * docs/api-notes.md). A press polls at once. Beside it, a hardware fault of the machine (or the worst of the
 * machines with a management controller in the global settings, for the session), from core's hardware watch,
 * one per machine for every key of the client.
 */
import { type HardwareSnapshot, type HealthEntry, reasonOf, worstHealth } from '@stagelink/core';
import { largeAnswersFailFace, noLinkFace, problemFace, setupFace, waitingFace } from '../render/faces.js';
import { hardwareSignOf, healthFace, type HardwareSign } from '../render/health-face.js';
import { hardwareSetting, textSetting, type HealthKeySettings, type HostChoice } from '../settings.js';
import { isLinkDown, largeAnswersFail } from '../state/connection/link.js';
import type { PollState } from '../state/connection/shared-poll.js';
import type { KeySurface, TileContext } from './tile.js';
import { TileBase } from './tile-base.js';

export class HealthTile extends TileBase<HealthKeySettings> {
  #machine: string | undefined;
  #state: PollState<HealthEntry[]> | undefined;
  /** The latest snapshot of each machine watched, by hostname. */
  readonly #hardware = new Map<string, HardwareSnapshot>();
  /** What the hardware watches were opened for (lease, machines, SMCs, period), to keep them while it stays the same. */
  #hardwareKey: string | undefined;
  #stopHardware: (() => void)[] = [];
  #toldSign: string | undefined;

  constructor(
    private readonly surface: KeySurface,
    context: TileContext,
  ) {
    super((svg) => surface.setImage(svg), context);
  }

  protected get subject(): string {
    return `Health key ${this.#machine ?? 'SESSION'}`;
  }

  configure(settings: HealthKeySettings, host: HostChoice): void {
    if (this.disposed) return;
    this.#machine = textSetting(settings.machine);
    const binding = this.bindHost(host, { setUp: setupFace('HEALTH'), waiting: waitingFace('HEALTH', 'loading') });
    if (!binding || host.kind !== 'host') return;
    this.#watchHardware(binding.lease, host);
    this.keepFollowing(binding, binding.lease.health, (state) => this.#render(state), this.context.visible);
  }

  protected override stop(): void {
    super.stop();
    this.#unwatchHardware();
  }

  /**
   * Watches the machines this key shows whose management controller the global settings name: its machine, or
   * every one of them for the session. A malformed line is logged and no hardware is shown: session health goes on.
   */
  #watchHardware(lease: NonNullable<typeof this.binding.lease>, host: Extract<HostChoice, { kind: 'host' }>): void {
    let setting: ReturnType<typeof hardwareSetting>;
    try {
      setting = hardwareSetting(host);
    } catch (error) {
      this.#unwatchHardware();
      this.reasons.tell(`Management controllers: ${reasonOf(error)}`, true);
      return;
    }
    const wanted = this.#machine?.toLowerCase();
    const machines = Object.entries(setting.smcs).filter(([hostname]) => wanted === undefined || hostname.toLowerCase() === wanted);
    const key = JSON.stringify([lease.key, machines.map(([hostname, smc]) => [hostname, smc.host]), setting.everyMs]);
    if (key === this.#hardwareKey) return;
    this.#unwatchHardware();
    if (!this.context.visible || machines.length === 0) return;
    this.#hardwareKey = key;
    this.#stopHardware = machines.map(([hostname, smc]) =>
      lease.hardware.watch(hostname, smc, setting.everyMs, (snapshot) => {
        if (this.disposed) return;
        this.#hardware.set(hostname, { ...snapshot, machine: hostname });
        if (this.#state) this.#render(this.#state);
      }),
    );
  }

  #unwatchHardware(): void {
    for (const stop of this.#stopHardware) stop();
    this.#stopHardware = [];
    this.#hardware.clear();
    this.#hardwareKey = undefined;
  }

  /** The hardware fault to show, logged once each time it changes (which machine, and why). */
  #hardwareSign(): HardwareSign | undefined {
    const sign = hardwareSignOf(this.#hardware.values());
    const told = sign ? `${sign.machine}: ${sign.word}` : undefined;
    if (told !== this.#toldSign) {
      this.#toldSign = told;
      const reasons = sign ? this.#hardware.get(sign.machine)?.reasons.join('; ') : undefined;
      if (sign) this.context.logger.warn(`${this.subject}: hardware of ${sign.machine} ${sign.word}${reasons ? ` (${reasons})` : ''}`);
    }
    return sign;
  }

  press(): void {
    const lease = this.binding.lease;
    if (!lease) {
      this.surface.showAlert();
      return;
    }
    lease.health.refresh();
  }

  #render(state: PollState<HealthEntry[]>): void {
    if (this.disposed) return;
    this.#state = state;
    const scope = this.#machine ?? 'SESSION';
    switch (state.status) {
      case 'connecting':
        this.presenter.show(waitingFace(scope, 'connecting'));
        return;
      case 'offline':
        if (isLinkDown(state.error)) {
          this.presenter.show(noLinkFace(scope));
          return;
        }
        this.reasons.tell(reasonOf(state.error));
        this.presenter.show(largeAnswersFail(state.error) ? largeAnswersFailFace(scope) : problemFace(scope));
        return;
      case 'online':
        if (!Array.isArray(state.value)) {
          this.#showProblem(scope, 'The server sent no health list.');
          return;
        }
        this.reasons.clear();
        {
          const hardware = this.#hardwareSign();
          this.presenter.show(healthFace({ scope, severity: worstHealth(state.value, this.#machine), ...(hardware ? { hardware } : {}) }));
        }
    }
  }

  #showProblem(scope: string, reason: string): void {
    this.reasons.tell(reason);
    this.presenter.show(problemFace(scope));
  }
}
