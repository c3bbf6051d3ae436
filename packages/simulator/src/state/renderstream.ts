import type { Ref, RenderStreamLayer, WorkloadState } from '@stagelink/core';
import { requireByRef } from './refs.js';

/**
 * RenderStream layers, each rendered by a workload (Unreal, Notch, TouchDesigner) on the cluster. A workload crashes
 * only when a test says so (the `crashWorkload` control action), and comes back on restart, as an operator's
 * restart from the desk brings a real one back. Uids are fixed, not drawn from the seed, so adding layers does not
 * change the rest of the show.
 */
export class RenderStream {
  readonly #layers: RenderStreamLayer[] = [
    { uid: '9100000000000000001', name: 'Unreal Stage', workload: { state: 'running' } },
    { uid: '9100000000000000002', name: 'Notch FX', workload: { state: 'running' } },
    { uid: '9100000000000000003', name: 'TouchDesigner Data', workload: { state: 'running' } },
  ];

  layers(): RenderStreamLayer[] {
    return this.#layers.map((layer) => ({ ...layer, workload: { ...layer.workload } }));
  }

  start(refs: readonly Ref[]): void {
    for (const layer of this.#resolve(refs)) if (layer.workload.state !== 'running') this.#set(layer, 'running');
  }

  stop(refs: readonly Ref[]): void {
    for (const layer of this.#resolve(refs)) this.#set(layer, 'stopped');
  }

  restart(refs: readonly Ref[]): void {
    for (const layer of this.#resolve(refs)) this.#set(layer, 'running');
  }

  /** Syncing changes no state the simulator models; the references are still checked. */
  sync(refs: readonly Ref[]): void {
    this.#resolve(refs);
  }

  /** Updating the pool restarts the layer's workload. */
  failoverPool(ref: Ref): void {
    this.restart([ref]);
  }

  crash(ref: Ref, message = 'The workload exited unexpectedly'): void {
    const [layer] = this.#resolve([ref]);
    if (layer) layer.workload = { state: 'error', message };
  }

  /** The layer goes from the project (an operator deleting it in rehearsal): it is no longer listed. */
  remove(ref: Ref): void {
    const [layer] = this.#resolve([ref]);
    this.#layers.splice(this.#layers.indexOf(layer as RenderStreamLayer), 1);
  }

  #set(layer: RenderStreamLayer, state: WorkloadState): void {
    layer.workload = { state };
  }

  #resolve(refs: readonly Ref[]): RenderStreamLayer[] {
    // All or nothing: an unknown layer refuses the whole request before any workload changes.
    return refs.map((ref) => requireByRef(this.#layers, ref, 'RenderStream layer'));
  }
}
