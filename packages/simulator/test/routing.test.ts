import { endpointList } from '@stagelink/core';
import { describe, expect, it } from 'vitest';
import { EndpointRouter } from '../src/router.js';
import { routeHandlers } from '../src/routes/index.js';

describe('routing by the catalogue', () => {
  it('has exactly one handler per catalogue entry', () => {
    expect(Object.keys(routeHandlers).sort()).toEqual(endpointList.map((endpoint) => endpoint.id).sort());
  });

  it('routes every catalogue path and method to its own entry', () => {
    const router = new EndpointRouter();
    for (const endpoint of endpointList) {
      const match = router.match(endpoint.method, endpoint.path.replace('{mac}', '00-1A-2B-3C-4D-5E'));
      expect(match.kind === 'endpoint' && match.endpoint.id, `${endpoint.method} ${endpoint.path}`).toBe(endpoint.id);
    }
  });

  it('decodes path parameters and ignores a trailing slash', () => {
    const match = new EndpointRouter().match('GET', '/api/networkadapters/00%3A1A%3A2B%3A3C%3A4D%3A5E/');
    expect(match).toMatchObject({ kind: 'endpoint', params: { mac: '00:1A:2B:3C:4D:5E' } });
  });

  it('tells a wrong method from an unknown path, with the family of the path', () => {
    const router = new EndpointRouter();
    expect(router.match('GET', '/api/session/transport/play')).toEqual({ kind: 'wrong-method', allowed: ['POST'], family: 'session' });
    expect(router.match('GET', '/api/session/transport/rewind')).toEqual({ kind: 'unknown', family: 'session' });
    expect(router.match('GET', '/api/teapot')).toEqual({ kind: 'unknown', family: 'hardware' });
    expect(router.match('GET', '/index.html')).toEqual({ kind: 'unknown', family: undefined });
  });

  it('keeps the hardware session role apart from the session family', () => {
    expect(new EndpointRouter().match('POST', '/api/session')).toMatchObject({ kind: 'endpoint', endpoint: { id: 'sessionRoleSet' } });
  });
});
