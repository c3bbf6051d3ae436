import { beforeEach, describe, expect, it } from 'vitest';
import { answerApiRequest, type ApiRequest, type DriveApi } from '../src/drive/api.js';
import { DriveFaults, parseControlAction } from '../src/drive/control.js';
import { DriveState } from '../src/drive/drive-state.js';
import { seedOrganisation } from '../src/drive/seed.js';

const { drives, tokens, demo } = seedOrganisation(3);
let api: DriveApi;

beforeEach(() => {
  api = { state: new DriveState(drives, () => '2025-06-01T00:00:00.000000Z'), tokens, baseUrl: 'http://drive.test' };
});

const versionsPath = `/v1/drives/${demo.driveId}/content/${demo.contentId}/versions`;

function send(overrides: Partial<ApiRequest>) {
  return answerApiRequest(api, {
    method: 'GET',
    rawPath: versionsPath,
    query: new URLSearchParams(),
    authorization: `Token ${demo.token}`,
    body: '',
    ...overrides,
  });
}

function newestVersionPath(): string {
  const listed = api.state.listVersions(demo.driveId, demo.contentId);
  return `${versionsPath}/${listed.ok ? (listed.value[0]?.id ?? '') : ''}`;
}

describe('drive API answers', () => {
  it('lists a page with links based on the service address and the path as received', () => {
    const answer = send({ query: new URLSearchParams('page=3') });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ meta: { current_page: 3, total: 40, path: `http://drive.test${versionsPath}` } });
  });

  it.each([
    ['missing', undefined, 'No API token'],
    ['empty', '', 'No API token'],
    ['of another scheme', `Bearer ${demo.token}`, 'Malformed'],
    ['without a value', 'Token', 'Malformed'],
    ['unknown', 'Token not-a-token', 'invalid or has been revoked'],
    ['revoked', `Token ${demo.revokedToken}`, 'invalid or has been revoked'],
  ])('answers 401 in the spec error shape for a token that is %s', (_, authorization, details) => {
    const answer = send({ authorization });
    expect(answer).toMatchObject({ status: 401, headers: { 'www-authenticate': 'Token' } });
    expect(answer.body).toEqual({ error: { message: 'Unauthenticated', details: expect.stringContaining(details) as unknown } });
  });

  it('takes the scheme in any case, as HTTP auth schemes are', () => {
    expect(send({ authorization: `token ${demo.token}` }).status).toBe(200);
  });

  it('lets a token without version rights read but not change', () => {
    const authorization = `Token ${demo.withoutVersionRightsToken}`;
    expect(send({ authorization }).status).toBe(200);
    expect(send({ authorization, rawPath: newestVersionPath() }).status).toBe(200);
    for (const method of ['PATCH', 'DELETE']) {
      const answer = send({ authorization, method, rawPath: newestVersionPath(), body: '{"set_active":true}' });
      expect(answer).toMatchObject({ status: 403, body: { error: { message: 'Forbidden' } } });
    }
  });

  it('answers the spec 404 messages, message and details equal', () => {
    const missing = (rawPath: string) => send({ rawPath }).body;
    expect(missing('/v1/drives/x/content/y/versions')).toEqual({ error: { message: 'Drive not found', details: 'Drive not found' } });
    expect(missing(`/v1/drives/${demo.driveId}/content/y/versions`)).toEqual({ error: { message: 'Content not found', details: 'Content not found' } });
    expect(missing(`${versionsPath}/z`)).toEqual({ error: { message: 'Content Version not found', details: 'Content Version not found' } });
  });

  it('checks the path before the token: an unknown endpoint is 404 even without one', () => {
    expect(send({ rawPath: '/v2/drives', authorization: undefined })).toMatchObject({ status: 404, body: { error: { message: 'Not found' } } });
    expect(send({ rawPath: `${versionsPath}/`, authorization: undefined }).status).toBe(404);
  });

  it('answers 405 with Allow for a method the endpoint does not take', () => {
    expect(send({ method: 'POST' })).toMatchObject({ status: 405, headers: { allow: 'GET' } });
    expect(send({ method: 'PUT', rawPath: newestVersionPath() })).toMatchObject({ status: 405, headers: { allow: 'GET, PATCH, DELETE' } });
  });

  it('answers 400 for a path that is not valid percent-encoding', () => {
    expect(send({ rawPath: `${versionsPath}/%E0%A4%A` }).status).toBe(400);
  });

  it.each([
    ['{"label":', 400],
    ['[]', 400],
    ['"text"', 400],
    ['{"label":5}', 422],
    ['{"set_active":"yes"}', 422],
  ])('refuses the PATCH body %s with %s in the spec error shape', (body, status) => {
    const answer = send({ method: 'PATCH', rawPath: newestVersionPath(), body });
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ error: { message: expect.any(String) as unknown, details: expect.any(String) as unknown } });
  });

  it('answers a PATCH with 200 and the version, and a DELETE with 204 and no body', () => {
    const path = newestVersionPath();
    expect(send({ method: 'PATCH', rawPath: path, body: '{"label":"Final","extra":1}' })).toMatchObject({ status: 200, body: { label: 'Final' } });
    expect(send({ method: 'PATCH', rawPath: path, body: '' })).toMatchObject({ status: 200, body: { label: 'Final' } });
    expect(send({ method: 'DELETE', rawPath: path })).toEqual({ status: 204, body: undefined });
  });

  it('refuses to delete the last version with 409', () => {
    const rawPath = `/v1/drives/${demo.driveId}/content/${demo.singleVersionContentId}/versions`;
    const listed = send({ rawPath }).body as { data: { id: string }[] };
    const answer = send({ method: 'DELETE', rawPath: `${rawPath}/${listed.data[0]?.id ?? ''}` });
    expect(answer).toMatchObject({ status: 409, body: { error: { message: 'Cannot delete the last version' } } });
  });

  it('refuses a per_page above 100 with 422', () => {
    expect(send({ query: new URLSearchParams('per_page=101') }).status).toBe(422);
  });
});

describe('drive control', () => {
  it('reads latency, failNext and reset, and refuses anything else', () => {
    expect(parseControlAction('{"action":"latency","ms":250}')).toEqual({ ok: true, action: { action: 'latency', ms: 250 } });
    expect(parseControlAction('{"action":"failNext","status":503}')).toEqual({ ok: true, action: { action: 'failNext', status: 503, count: 1 } });
    expect(parseControlAction('{"action":"reset"}')).toEqual({ ok: true, action: { action: 'reset' } });
    for (const text of ['', 'null', '{"action":"latency","ms":-1}', '{"action":"failNext","status":200}', '{"action":"dropSockets"}']) {
      expect(parseControlAction(text).ok).toBe(false);
    }
  });

  it('reads addAsset with a version count from 1 to 10,000', () => {
    expect(parseControlAction('{"action":"addAsset","versions":5000}')).toEqual({ ok: true, action: { action: 'addAsset', versions: 5000 } });
    for (const text of ['{"action":"addAsset"}', '{"action":"addAsset","versions":0}', '{"action":"addAsset","versions":10001}', '{"action":"addAsset","versions":2.5}']) {
      expect(parseControlAction(text)).toMatchObject({ ok: false, details: expect.stringContaining('addAsset needs "versions"') as unknown });
    }
  });

  it('fails exactly the next count requests with the chosen status', () => {
    const faults = new DriveFaults();
    faults.failNext(503, 2);
    expect([faults.takeFailure(), faults.takeFailure(), faults.takeFailure()]).toEqual([503, 503, undefined]);
  });
});
