/**
 * The RenderStream layer key: the layer's name over its workload's state, from the layers every layer key of the
 * host shares (one core watch per client), and a press that restarts, starts or stops the workload. Restart and
 * stop take two presses: the first arms the key (PRESS AGAIN), the second within the arm window sends it; start
 * fires at once. Every press ends in OK or an alert on the key, and a failure is logged once, with core's reason.
 * A layer the director does not list says NO LAYER (the log names the layers it does list), a director without
 * RenderStream says N/A, and a snapshot that is not the director's now is STALE or NO LINK, never a state shown as live.
 */
import { layerNamed, type LayersSnapshot, reasonOf, type Ref } from '@stagelink/core';
import { largeAnswersFailFace, noLinkFace, problemFace, setupFace, staleFace, waitingFace } from '../render/faces.js';
import { armedLayerFace, LAYER_KEY_NAME, layerFace, noLayerFace, notOfferedFace } from '../render/layer-face.js';
import { layerOperationSetting, textSetting, type HostChoice, type LayerOperation, type RenderStreamKeySettings } from '../settings.js';
import { ARM_MS, KeyArm } from '../state/confirm/key-arm.js';
import { isLinkDown, largeAnswersFail } from '../state/connection/link.js';
import { LAYER_OPERATION_WORDS, noLayerReason, takesTwoPresses } from '../state/renderstream/layer-operation.js';
import { hostProblem } from './host-binding.js';
import type { KeySurface, TileContext } from './tile.js';
import { TileBase } from './tile-base.js';
import { logRoutine } from '../logging.js';

/** A director without RenderStream: core reports its layers offline with this code. */
const NOT_OFFERED = 'STAGELINK_ERR_NOT_OFFERED';

export class LayerTile extends TileBase<RenderStreamKeySettings> {
  #layer: string | undefined;
  #operation: LayerOperation | undefined;
  #hostProblem: string | undefined;
  #snapshot: LayersSnapshot | undefined;
  #stopLayers: (() => void) | undefined;
  /** What the layers were watched for (the lease), to keep the watch while it stays the same. */
  #watchedKey: string | undefined;
  readonly #arm = new KeyArm(() => this.#render());

  constructor(
    private readonly surface: KeySurface,
    context: TileContext,
  ) {
    super((svg) => surface.setImage(svg), context);
  }

  protected get subject(): string {
    return `RenderStream key ${this.#layer ?? LAYER_KEY_NAME}`;
  }

  configure(settings: RenderStreamKeySettings, host: HostChoice): void {
    if (this.disposed) return;
    const layer = textSetting(settings.layer);
    const operation = layerOperationSetting(settings.operation);
    // A second press must never fire at another layer, operation or host than the first one armed.
    this.#arm.close();
    this.#layer = layer;
    this.#operation = operation;
    const binding = this.binding.bind(host);
    if (binding.kind !== 'bound') {
      this.stop();
      this.#hostProblem = hostProblem(binding);
      this.#render();
      return;
    }
    this.#hostProblem = undefined;
    const lease = binding.lease;
    if (this.#settingsProblem() === undefined && this.context.visible) {
      if (lease.key !== this.#watchedKey || !this.#stopLayers) {
        this.#unwatchLayers();
        this.#watchedKey = lease.key;
        this.#stopLayers = lease.layers.watch((snapshot) => {
          if (this.disposed) return;
          this.#snapshot = snapshot;
          this.#render();
        });
      }
    } else {
      this.#unwatchLayers();
    }
    this.#render();
  }

  protected override stop(): void {
    this.#unwatchLayers();
    this.#arm.close();
    super.stop();
  }

  #unwatchLayers(): void {
    this.#stopLayers?.();
    this.#stopLayers = undefined;
    this.#watchedKey = undefined;
    this.#snapshot = undefined;
  }

  /** What the key's own settings lack; undefined when it can work. */
  #settingsProblem(): string | undefined {
    if (this.#layer === undefined) return 'Choose a RenderStream layer.';
    if (this.#operation === undefined) return 'Choose what the key does: restart, start or stop.';
    return undefined;
  }

  /** Restart and stop arm on the first press and go on the second; start goes at once. */
  press(): void {
    const problem = this.#settingsProblem() ?? this.#hostProblem;
    const lease = this.binding.lease;
    const layer = this.#layer;
    const operation = this.#operation;
    if (problem !== undefined || !lease || layer === undefined || operation === undefined) {
      this.context.logger.warn(`${this.subject}: nothing sent: ${problem ?? 'no media server set.'}`);
      this.surface.showAlert();
      return;
    }
    // A layer that cannot be reached is refused at once, not armed for a second press that could only fail.
    let target = this.#target(layer);
    if (typeof target !== 'string' && takesTwoPresses(operation)) {
      if (!this.#arm.press()) {
        logRoutine(this.context.logger, `${this.subject}: armed; press again within ${ARM_MS / 1000} s to ${operation} the layer.`);
        return;
      }
      // The list may have changed while the key was armed.
      target = this.#target(layer);
    }
    if (typeof target === 'string') {
      this.#arm.clear();
      this.context.logger.warn(`${this.subject}: ${LAYER_OPERATION_WORDS[operation]} not sent: ${target}`);
      this.surface.showAlert();
      return;
    }
    // A guarded operation gets here only after the operator's confirming press.
    lease.cues.send(() => lease.server.renderstream.operate(operation, target, { confirm: true })).then(
      () => {
        this.surface.showOk();
        lease.layers.refresh();
      },
      (error: unknown) => {
        this.context.logger.warn(`${this.subject}: ${LAYER_OPERATION_WORDS[operation]} on ${lease.origin} failed: ${reasonOf(error)}`);
        this.surface.showAlert();
        lease.layers.refresh();
      },
    );
  }

  /**
   * Whom the operation goes to: the layer's uid when the director's list has it (a name typed in another case
   * still reaches it), the name as typed while no list is in (the director then says whether it knows it), or why
   * nothing is sent: the list has no such layer, or the director offers no RenderStream.
   */
  #target(layer: string): Ref | string {
    const snapshot = this.#snapshot;
    if (snapshot?.status === 'offline' && snapshot.problem?.error.code === NOT_OFFERED) return 'this director does not offer RenderStream.';
    if (!snapshot || snapshot.status === 'offline') return { name: layer };
    const found = layerNamed(snapshot.layers, layer);
    return found ? { uid: found.uid } : noLayerReason(layer, snapshot);
  }

  #render(): void {
    if (this.disposed) return;
    const layer = this.#layer ?? LAYER_KEY_NAME;
    const problem = this.#settingsProblem() ?? this.#hostProblem;
    if (problem !== undefined) {
      this.reasons.tell(problem, true);
      this.presenter.show(setupFace(LAYER_KEY_NAME));
      return;
    }
    if (!this.binding.lease) {
      this.presenter.show(waitingFace(layer, 'loading'));
      return;
    }
    if (this.#arm.armed && this.#operation) {
      this.presenter.show(armedLayerFace(this.#operation));
      return;
    }
    const snapshot = this.#snapshot;
    if (!snapshot) {
      this.presenter.show(waitingFace(layer, 'connecting'));
      return;
    }
    const { problem: read } = snapshot;
    switch (snapshot.status) {
      case 'offline':
        if (read?.error.code === NOT_OFFERED) {
          this.reasons.tell('This director does not offer RenderStream: the key has nothing to show or send.');
          this.presenter.show(notOfferedFace(layer));
        } else if (read && isLinkDown(read.error)) {
          this.presenter.show(noLinkFace(layer));
        } else {
          if (read) this.reasons.tell(read.message);
          this.presenter.show(read && largeAnswersFail(read.error) ? largeAnswersFailFace(layer) : problemFace(layer));
        }
        return;
      case 'stale':
        // The director answered, but not with the layers: what was read before is not shown as now.
        if (read) this.reasons.tell(read.message);
        this.presenter.show(read && largeAnswersFail(read.error) ? largeAnswersFailFace(layer) : staleFace(layer));
        return;
      case 'online': {
        const found = layerNamed(snapshot.layers, layer);
        if (!found) {
          this.reasons.tell(noLayerReason(layer, snapshot));
          this.presenter.show(noLayerFace(layer));
          return;
        }
        this.reasons.clear();
        this.presenter.show(layerFace(found.name, found.workload.state));
      }
    }
  }
}
