/**
 * The health key: the worst severity of the session, or of one machine, from the REST health endpoint
 * polled gently and shared by every health key of the host (the live stream is unreliable for severity,
 * docs/api-notes.md). A press polls at once.
 */
import { type HealthEntry, reasonOf, worstHealth } from '@stagelink/core';
import { offlineFace, problemFace, setupFace, waitingFace } from '../render/faces.js';
import { healthFace } from '../render/health-face.js';
import { textSetting, type HealthKeySettings, type HostChoice } from '../settings.js';
import { FramePresenter } from '../state/frame-presenter.js';
import { isLinkDown } from '../state/link.js';
import type { PollState } from '../state/shared-poll.js';
import { HostBinding, hostLabel, hostProblem } from './host-binding.js';
import type { KeySurface, Tile, TileContext } from './tile.js';

export class HealthTile implements Tile<HealthKeySettings> {
  readonly #presenter: FramePresenter;
  readonly #binding: HostBinding;
  #stopWatching: (() => void) | undefined;
  #machine: string | undefined;
  #disposed = false;

  constructor(
    private readonly surface: KeySurface,
    private readonly context: TileContext,
  ) {
    this.#presenter = new FramePresenter((svg) => surface.setImage(svg));
    this.#binding = new HostBinding(context.pool);
    if (context.visible) this.#presenter.appear();
  }

  configure(settings: HealthKeySettings, host: HostChoice): void {
    if (this.#disposed) return;
    this.#machine = textSetting(settings.machine);
    const binding = this.#binding.bind(host);
    if (binding.kind !== 'bound') {
      this.#unwatch();
      const problem = hostProblem(binding);
      this.#presenter.show(problem ? setupFace('HEALTH', problem) : waitingFace('HEALTH', 'loading settings'));
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
    const origin = this.#binding.lease?.origin ?? '';
    switch (state.status) {
      case 'connecting':
        this.#presenter.show(waitingFace(`HEALTH ${scope}`, 'connecting'));
        return;
      case 'offline':
        this.#presenter.show(
          isLinkDown(state.error) ? offlineFace(`HEALTH ${scope}`, hostLabel(origin)) : problemFace(`HEALTH ${scope}`, reasonOf(state.error)),
        );
        return;
      case 'online':
        this.#presenter.show(
          Array.isArray(state.value)
            ? healthFace({ scope, severity: worstHealth(state.value, this.#machine) })
            : problemFace(`HEALTH ${scope}`, 'The server sent no health list.'),
        );
    }
  }

  #unwatch(): void {
    this.#stopWatching?.();
    this.#stopWatching = undefined;
  }
}
