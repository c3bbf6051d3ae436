/**
 * The health key: the worst severity of the session, or of one machine, from the REST health endpoint
 * polled gently and shared by every health key of the host (the live stream is unreliable for severity,
 * docs/api-notes.md). A press polls at once.
 */
import { type HealthEntry, reasonOf, worstHealth } from '@stagelink/core';
import { largeAnswersFailFace, noLinkFace, problemFace, setupFace, waitingFace } from '../render/faces.js';
import { healthFace } from '../render/health-face.js';
import { textSetting, type HealthKeySettings, type HostChoice } from '../settings.js';
import { isLinkDown, largeAnswersFail } from '../state/connection/link.js';
import type { PollState } from '../state/connection/shared-poll.js';
import type { KeySurface, TileContext } from './tile.js';
import { TileBase } from './tile-base.js';

export class HealthTile extends TileBase<HealthKeySettings> {
  #machine: string | undefined;

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
    if (!binding) return;
    this.keepFollowing(binding, binding.lease.health, (state) => this.#render(state), this.context.visible);
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
        this.presenter.show(healthFace({ scope, severity: worstHealth(state.value, this.#machine) }));
    }
  }

  #showProblem(scope: string, reason: string): void {
    this.reasons.tell(reason);
    this.presenter.show(problemFace(scope));
  }
}
