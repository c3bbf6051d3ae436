import { describe, expect, it, onTestFinished } from 'vitest';
import { ConfirmationRequiredError, InvalidInputError, MediaServer, NotEnabledError, endpoints, layerNamed, needsConfirmation, type LayerOperation } from '../src/index.js';
import { json, ok, startScriptedServer } from './support/scripted-server.js';

async function clientOf(options: { allowPython?: boolean } = {}) {
  const server = await startScriptedServer([], json(200, { status: ok }));
  const ms = new MediaServer({ host: server.url, timeoutMs: 2000, ...options });
  onTestFinished(async () => {
    await ms.close();
    await server.close();
  });
  return { ms, sent: () => server.received.map(({ method, url, body }) => ({ method, url, body: body ? (JSON.parse(body) as unknown) : undefined })) };
}

describe('RenderStream layers', () => {
  it('restarts, starts and syncs layers with the recorded bodies', async () => {
    const { ms, sent } = await clientOf();
    await ms.renderstream.restartLayers({ layers: [{ name: 'unreal' }] });
    await ms.renderstream.startLayers({ layers: [{ uid: '42' }] });
    await ms.renderstream.syncLayers({ layers: [{ name: 'notch' }] });
    expect(sent()).toEqual([
      { method: 'POST', url: '/api/session/renderstream/restartlayers', body: { layers: [{ name: 'unreal' }] } },
      { method: 'POST', url: '/api/session/renderstream/startlayers', body: { layers: [{ uid: '42' }] } },
      { method: 'POST', url: '/api/session/renderstream/synclayers', body: { layers: [{ name: 'notch' }] } },
    ]);
  });

  it('refuses unconfirmed stopLayers, failover and failoverPool unsent, and sends them confirmed', async () => {
    const { ms, sent } = await clientOf();
    await expect(ms.renderstream.stopLayers({ layers: [{ name: 'unreal' }] })).rejects.toBeInstanceOf(ConfirmationRequiredError);
    await expect(ms.renderstream.failover({ machine: { name: 'RX01' } })).rejects.toBeInstanceOf(ConfirmationRequiredError);
    await expect(ms.renderstream.failoverPool({ layer: { name: 'unreal' } })).rejects.toBeInstanceOf(ConfirmationRequiredError);
    expect(sent()).toEqual([]);
    await ms.renderstream.failover({ machine: { name: 'RX01' } }, { confirm: true });
    await ms.renderstream.failoverPool({ layer: { name: 'unreal' } }, { confirm: true });
    expect(sent()).toEqual([
      { method: 'POST', url: '/api/session/renderstream/failover', body: { machine: { name: 'RX01' } } },
      { method: 'POST', url: '/api/session/renderstream/failoverpool', body: { layer: { name: 'unreal' } } },
    ]);
  });

  it('runs each operation on one layer, stop only confirmed, and refuses a word that is no operation unsent', async () => {
    const { ms, sent } = await clientOf();
    await ms.renderstream.operate('start', { name: 'unreal' });
    await ms.renderstream.operate('restart', { uid: '42' });
    await ms.renderstream.operate('sync', { name: 'notch' });
    await expect(ms.renderstream.operate('stop', { name: 'unreal' })).rejects.toBeInstanceOf(ConfirmationRequiredError);
    await expect(ms.renderstream.operate('halt' as LayerOperation, { name: 'unreal' })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(ms.renderstream.operate('constructor' as LayerOperation, { name: 'unreal' })).rejects.toBeInstanceOf(InvalidInputError);
    await ms.renderstream.operate('stop', { name: 'unreal' }, { confirm: true });
    expect(sent().map(({ url, body }) => ({ url, body }))).toEqual([
      { url: '/api/session/renderstream/startlayers', body: { layers: [{ name: 'unreal' }] } },
      { url: '/api/session/renderstream/restartlayers', body: { layers: [{ uid: '42' }] } },
      { url: '/api/session/renderstream/synclayers', body: { layers: [{ name: 'notch' }] } },
      { url: '/api/session/renderstream/stoplayers', body: { layers: [{ name: 'unreal' }] } },
    ]);
  });

  it('finds a typed layer by its exact name, then in another case when only one matches, then by uid', () => {
    const layers = [
      { uid: '1', name: 'Unreal Stage' },
      { uid: '2', name: 'notch' },
      { uid: '3', name: 'NOTCH' },
    ];
    expect(layerNamed(layers, 'Unreal Stage')?.uid).toBe('1');
    expect(layerNamed(layers, 'unreal stage')?.uid).toBe('1');
    expect(layerNamed(layers, 'NOTCH')?.uid).toBe('3');
    expect(layerNamed(layers, 'Notch')).toBeUndefined();
    expect(layerNamed(layers, '2')?.name).toBe('notch');
    expect(layerNamed(layers, 'touch')).toBeUndefined();
  });

  it('refuses a layer list with an empty reference before sending', async () => {
    const { ms, sent } = await clientOf();
    await expect(ms.renderstream.restartLayers({ layers: [{}] })).rejects.toThrow(/layers\[0\]/);
    expect(sent()).toEqual([]);
  });
});

describe('commands that can hurt a show', () => {
  it('are marked for a confirmation front ends ask for', () => {
    const guarded = [endpoints.stopLayers, endpoints.renderStreamFailover, endpoints.renderStreamFailoverPool, endpoints.rigCheckExecutePlan, endpoints.pythonExecute, endpoints.pythonRegisterModule];
    expect(guarded.map((spec) => needsConfirmation(spec))).toEqual(guarded.map(() => true));
    expect([endpoints.restartLayers, endpoints.startLayers, endpoints.sockpuppetLive].map((spec) => needsConfirmation(spec))).toEqual([false, false, false]);
  });

  it('refuses python unsent unless the client enables it, even confirmed', async () => {
    const { ms, sent } = await clientOf();
    await expect(ms.python.execute({ moduleName: 'show', script: 'print(1)' }, { confirm: true })).rejects.toBeInstanceOf(NotEnabledError);
    await expect(ms.python.execute({ moduleName: 'show', script: 'print(1)' }, { confirm: true })).rejects.toThrow(/allowPython: true/);
    expect(sent()).toEqual([]);
  });

  it('sends python confirmed when the client enables it', async () => {
    const { ms, sent } = await clientOf({ allowPython: true });
    await expect(ms.python.execute({ moduleName: 'show', script: 'print(1)' })).rejects.toBeInstanceOf(ConfirmationRequiredError);
    await ms.python.execute({ moduleName: 'show', script: 'print(1)' }, { confirm: true });
    expect(sent()).toEqual([{ method: 'POST', url: '/api/session/python/execute', body: { moduleName: 'show', script: 'print(1)' } }]);
  });

  it('sends sockpuppet patches, OmniCal discovery and the GUI mode as typed', async () => {
    const { ms, sent } = await clientOf();
    const patches = [{ address: 'layer/unreal', changes: [{ field: 'brightness', floatValue: { value: 0.5, duration: 1, easingFunction: 'linear' } }], uid: '7' }];
    await ms.sockpuppet.live({ patches });
    await ms.omnical.cameraDiscovery(true);
    await ms.status.setGuiMode({ machine: { name: 'ACTOR01' }, mode: 'AlwaysOff' });
    expect(sent().map(({ url, body }) => [url, body])).toEqual([
      ['/api/session/sockpuppet/live', { patches }],
      ['/api/session/omnical/cameradiscovery', { enabled: true }],
      ['/api/session/status/setguimode', { machine: { name: 'ACTOR01' }, mode: 'AlwaysOff' }],
    ]);
    await expect(ms.omnical.rigCheckExecutePlan({ plan: 'p' })).rejects.toBeInstanceOf(ConfirmationRequiredError);
  });
});
