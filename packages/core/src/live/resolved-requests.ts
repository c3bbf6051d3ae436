/**
 * Requests whose object expression depends on the build answering: shipping directors name remote monitors
 * `<HOSTNAME>:d3` and list them in `object.remoteNodes()`, the API documents name them `<hostname>:svc`; the
 * stream render subsystem is `RenderStreamSystem` on shipping builds and `StreamRenderSystem` in the documents.
 * These helpers resolve the object through the stream itself and hand the consumer one subscription.
 */
import { LiveUpdateError } from '../errors.js';
import type { LiveRequest } from './presets.js';
import type { LiveValue } from './subscription-registry.js';

/** What a resolver needs of the client: a plain subscribe and a way to wrap the result. */
export interface Subscriber {
  subscribe(request: LiveRequest, onValue: (value: LiveValue) => void, onError: (error: LiveUpdateError) => void): Handle;
}

export interface Handle {
  close(): void;
  set(value: unknown, property?: string): Promise<void>;
}

export const REMOTE_NODES_REQUEST: LiveRequest = {
  object: 'subsystem:MonitoringManager',
  properties: ['object.remoteNodes()'],
  updateFrequencyMs: 1000,
};

/** The remote node a director lists for a hostname, whatever its suffix and case; undefined when it lists none. */
export function remoteNodeFor(nodes: readonly unknown[], hostname: string): string | undefined {
  const wanted = hostname.toLowerCase();
  return nodes.find((node): node is string => typeof node === 'string' && node.split(':')[0]?.toLowerCase() === wanted);
}

/**
 * Watches the director's remote node list and keeps one subscription to the monitor of the node it lists for
 * `hostname`. A server that has no such list (the documents' dialect) gets the request's own `<hostname>:svc`.
 */
export function subscribeRemoteMonitor(
  client: Subscriber,
  request: LiveRequest & { remoteMonitor: NonNullable<LiveRequest['remoteMonitor']> },
  onValue: (value: LiveValue) => void,
  onError: (error: LiveUpdateError) => void,
): Handle {
  const { hostname, objectFor } = request.remoteMonitor;
  let current: { object: string; handle: Handle } | undefined;
  const watch = (object: string | undefined): void => {
    if (current?.object === object) return;
    current?.handle.close();
    current = object === undefined ? undefined : { object, handle: client.subscribe({ ...request, object, remoteMonitor: undefined }, onValue, onError) };
  };
  const nodes = client.subscribe(
    REMOTE_NODES_REQUEST,
    ({ value }) => {
      if (!Array.isArray(value)) return watch(request.object);
      const node = remoteNodeFor(value, hostname);
      if (node === undefined) onError(new LiveUpdateError(`${hostname} is not a machine this director monitors (it lists ${value.join(', ') || 'none'}).`));
      watch(node === undefined ? undefined : objectFor(node));
    },
    () => watch(request.object),
  );
  return {
    close: () => {
      nodes.close();
      watch(undefined);
    },
    set: (value, property) => current?.handle.set(value, property) ?? Promise.reject(new LiveUpdateError(`The monitor of ${hostname} is not found yet.`)),
  };
}

/**
 * Subscribes under every name the object may have at once; the first that answers a value is kept and the
 * others are released. An error reaches the consumer only once every name has failed.
 */
export function subscribeFirstKnown(
  client: Subscriber,
  request: LiveRequest & { otherObjects: readonly string[] },
  onValue: (value: LiveValue) => void,
  onError: (error: LiveUpdateError) => void,
): Handle {
  const candidates = [request.object, ...request.otherObjects].map((object) => ({ object, error: undefined as LiveUpdateError | undefined, handle: undefined as Handle | undefined }));
  let chosen: (typeof candidates)[number] | undefined;
  for (const candidate of candidates) {
    candidate.handle = client.subscribe(
      { ...request, object: candidate.object, otherObjects: undefined },
      (value) => {
        if (!chosen) choose(candidate);
        if (chosen === candidate) onValue(value);
      },
      (error) => {
        candidate.error = error;
        if (chosen === candidate) onError(error);
        else if (!chosen && candidates.every((each) => each.error)) onError(candidates[0]?.error ?? error);
      },
    );
  }
  function choose(candidate: (typeof candidates)[number]): void {
    chosen = candidate;
    for (const other of candidates) if (other !== candidate) other.handle?.close();
  }
  return {
    close: () => {
      for (const candidate of candidates) candidate.handle?.close();
    },
    set: (value, property) => (chosen?.handle ?? candidates[0]?.handle)?.set(value, property) ?? Promise.reject(new LiveUpdateError('Not subscribed.')),
  };
}
