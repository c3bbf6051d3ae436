/**
 * The health key: the worst severity of the session, or of one machine, from the REST health endpoint
 * polled gently and shared by every health key of the host (the live stream is unreliable for severity,
 * docs/api-notes.md). A press polls at once.
 */
import { type HealthEntry, reasonOf, worstHealth } from '@stagelink/core';
import { noLinkFace, problemFace, setupFace, waitingFace } from '../render/faces.js';
import { healthFace } from '../render/health-face.js';
import { textSetting, type HealthKeySettings, type HostChoice } from '../settings.js';
import { FramePresenter } from '../state/frames/frame-presenter.js';
import { isLinkDown } from '../state/connection/link.js';
import type { PollState } from '../state/connection/shared-poll.js';
import { HostBinding, hostProblem } from './host-binding.js';
import { ReasonLog } from './reason-log.js';
import type { KeySurface, Tile, TileContext } from './tile.js';

export class HealthTile implements Tile<HealthKeySettings> {
  readonly #presenter: FramePresenter;
  readonly #binding: HostBinding;
  readonly #reasons: ReasonLog;
  #stopWatching: (() => void) | undefined;
  #machine: string | undefined;
  #disposed = false;

  constructor(
    private readonly surface: KeySurface,
    private readonly context: TileContext,
  ) {
    this.#presenter = new FramePresenter((svg) => surface.setImage(svg));
    this.#binding = new HostBinding(context.pool);
    this.#reasons = new ReasonLog(context.logger, () => `Health key ${this.#machine ?? 'SESSION'}`);
    if (context.visible) this.#presenter.appear();
  }

  configure(settings: HealthKeySettings, host: HostChoice): void {
    if (this.#disposed) return;
    this.#machine = textSetting(settings.machine);
    const binding = this.#binding.bind(host);
    if (binding.kind !== 'bound') {
      this.#unwatch();
      const problem = hostProblem(binding);
      if (problem) this.#reasons.tell(problem);
      this.#presenter.show(problem ? setupFace('HEALTH') : waitingFace('HEALTH', 'loading'));
      return;
    }
    if (binding.changed || !this.#stopWatching) {
      this.#unwatch();
      if (this.context.visible) {
        // The first call comes at once with the poll's current state.
        this.#stopWatching = binding.lease.health.watch((state) => this.#render(state));
        return;
      }
    }
    this.#render(binding.lease.health.state);
  }

  press(): void {
    const lease = this.#binding.lease;
    if (!lease) {
      this.surface.showAlert();
      return;
    }
    lease.health.refresh();
  }

  dispose(): void {
    this.#disposed = true;
    this.#unwatch();
    this.#binding.release();
    this.#presenter.dispose();
  }

  #render(state: PollState<HealthEntry[]>): void {
    if (this.#disposed) return;
    const scope = this.#machine ?? 'SESSION';
    switch (state.status) {
      case 'connecting':
        this.#presenter.show(waitingFace(scope, 'connecting'));
        return;
      case 'offline':
        if (isLinkDown(state.error)) {
          this.#presenter.show(noLinkFace(scope));
          return;
        }
        this.#showProblem(scope, reasonOf(state.error));
        return;
      case 'online':
        if (!Array.isArray(state.value)) {
          this.#showProblem(scope, 'The server sent no health list.');
          return;
        }
        this.#reasons.clear();
        this.#presenter.show(healthFace({ scope, severity: worstHealth(state.value, this.#machine) }));
    }
  }

  #showProblem(scope: string, reason: string): void {
    this.#reasons.tell(reason);
    this.#presenter.show(problemFace(scope));
  }

  #unwatch(): void {
    this.#stopWatching?.();
    this.#stopWatching = undefined;
  }
}
