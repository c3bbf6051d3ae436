import { NotOfferedError, type LayersSnapshot, type Ref, type RenderStreamLayer } from '@stagelink/core';

/**
 * Where one layer's workload stands, as the node shows and sends it. `online`, `stale` and `offline` are core's
 * snapshot statuses; `not-offered` is a director without RenderStream (the documents' servers, older builds);
 * `missing` is a layer the director does not list (a typo, or a layer removed from the project).
 */
export type LayerStatus = 'online' | 'stale' | 'offline' | 'not-offered' | 'missing';

export interface LayerReading {
  /** The layer as the director lists it; the ref the node was given while it is not listed. */
  layer: Ref;
  status: LayerStatus;
  /** The workload's state (`running`, `starting`, `stopped`, `error`, or the director's own word); null while unknown. */
  state: string | null;
  /** The director's words on the workload (why it is in error), when it gives any. */
  message?: string;
  /** The layers the director lists, by name: what a missing layer's message offers instead. */
  listed: string[];
}

/** The layer `ref` names in a snapshot of the director's layers, and how its workload stands. */
export function layerReading(snapshot: LayersSnapshot, ref: Ref): LayerReading {
  const listed = snapshot.layers.map((layer) => layer.name);
  if (snapshot.status === 'offline') {
    const status = snapshot.problem?.error instanceof NotOfferedError ? 'not-offered' : 'offline';
    return { layer: ref, status, state: null, listed };
  }
  const layer = findLayer(snapshot.layers, ref);
  if (!layer) return { layer: ref, status: 'missing', state: null, listed };
  const { state, message } = layer.workload;
  return {
    layer: { uid: layer.uid, name: layer.name },
    status: snapshot.status,
    state,
    ...(message ? { message } : {}),
    listed,
  };
}

/** A uid names one layer exactly; a name is matched as typed, as the director matches it. */
function findLayer(layers: readonly RenderStreamLayer[], ref: Ref): RenderStreamLayer | undefined {
  if (ref.uid !== undefined) return layers.find((layer) => layer.uid === ref.uid);
  return layers.find((layer) => layer.name === ref.name);
}

/** What the second output reports on: a new read of an unchanged workload is not news. */
export function verdictOf(reading: LayerReading): string {
  return JSON.stringify([reading.status, reading.state, reading.message ?? null]);
}

/** The layer as a flow names it: its name, else its uid. */
export function layerName(ref: Ref): string {
  return ref.name ?? ref.uid ?? '';
}
