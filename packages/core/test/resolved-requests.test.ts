import { describe, expect, it } from 'vitest';
import { LiveUpdateError, livePresets, type LiveRequest, type LiveValue } from '../src/index.js';
import { REMOTE_NODES_REQUEST, remoteNodeFor, subscribeFirstKnown, subscribeRemoteMonitor, type Subscriber } from '../src/live/resolved-requests.js';

/** A stand-in for the client's plain subscribe: records what is watched and lets the test answer. */
function fakeClient() {
  const watched = new Map<string, { onValue: (value: LiveValue) => void; onError: (error: LiveUpdateError) => void }>();
  const client: Subscriber = {
    subscribe(request: LiveRequest, onValue, onError) {
      watched.set(request.object, { onValue, onError });
      return { close: () => void watched.delete(request.object), set: () => Promise.resolve() };
    },
  };
  const value = (object: string, value: unknown) => watched.get(object)?.onValue({ object, property: 'p', value });
  const error = (object: string, message: string) => watched.get(object)?.onError(new LiveUpdateError(message));
  return { client, watched, value, error };
}

describe('remote monitors', () => {
  it('finds the node a director lists for a hostname in any case, whatever its suffix', () => {
    expect(remoteNodeFor(['ACTOR01:d3', 'ACTOR02:d3'], 'actor02')).toBe('ACTOR02:d3');
    expect(remoteNodeFor(['media-2:svc'], 'MEDIA-2')).toBe('media-2:svc');
    expect(remoteNodeFor(['ACTOR01:d3', 7, null], 'actor03')).toBeUndefined();
  });

  it('watches the monitor of the node the director lists, and moves when the list changes', () => {
    const { client, watched, value } = fakeClient();
    const errors: string[] = [];
    const handle = subscribeRemoteMonitor(client, livePresets.remoteFps('actor01') as never, () => undefined, (e) => errors.push(e.message));
    value(REMOTE_NODES_REQUEST.object, ['ACTOR01:d3']);
    expect([...watched.keys()]).toContain('subsystem:MonitoringManager.findRemoteMonitor("ACTOR01:d3", "fps")');
    value(REMOTE_NODES_REQUEST.object, ['ACTOR02:d3']);
    expect([...watched.keys()]).toEqual([REMOTE_NODES_REQUEST.object]);
    expect(errors[0]).toMatch(/actor01 is not a machine this director monitors \(it lists ACTOR02:d3\)/);
    handle.close();
    expect(watched.size).toBe(0);
  });

  it('uses the documents\' <hostname>:svc name on a server that has no node list', () => {
    const { client, watched, error } = fakeClient();
    subscribeRemoteMonitor(client, livePresets.remoteFps('media-2') as never, () => undefined, () => undefined);
    error(REMOTE_NODES_REQUEST.object, 'propertyPathError: remoteNodes');
    expect([...watched.keys()]).toContain('subsystem:MonitoringManager.findRemoteMonitor("media-2:svc", "fps")');
  });
});

describe('objects with several names', () => {
  it('keeps the name that answers and releases the others', () => {
    const { client, watched, value } = fakeClient();
    const values: unknown[] = [];
    subscribeFirstKnown(client, livePresets.workloadInstances('1') as never, (v) => values.push(v.value), () => undefined);
    expect([...watched.keys()]).toEqual(['subsystem:RenderStreamSystem', 'subsystem:StreamRenderSystem']);
    value('subsystem:StreamRenderSystem', 3);
    expect([...watched.keys()]).toEqual(['subsystem:StreamRenderSystem']);
    expect(values).toEqual([3]);
  });

  it('tells the consumer only when every name failed', () => {
    const { client, error } = fakeClient();
    const errors: string[] = [];
    subscribeFirstKnown(client, livePresets.workloadInstances('1') as never, () => undefined, (e) => errors.push(e.message));
    error('subsystem:RenderStreamSystem', 'unknown object');
    expect(errors).toEqual([]);
    error('subsystem:StreamRenderSystem', 'unknown object too');
    expect(errors).toEqual(['unknown object']);
  });
});
