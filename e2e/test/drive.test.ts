import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import {
  AbortedError,
  AuthError,
  ConflictError,
  DriveClient,
  DriveNotFoundError,
  HttpError,
  InvalidInputError,
  TimeoutError,
  type Version,
} from '@stagelink/core';
// The simulator's index is being written by another engineer; import the service from its source until it exports it.
import { startDriveService, type DriveService } from '@stagelink/simulator';

let service: DriveService;
let drive: DriveClient;
let asset: { driveId: string; contentId: string };
let singleVersionAsset: { driveId: string; contentId: string };

beforeEach(async () => {
  service = await startDriveService({ host: '127.0.0.1', port: 0, seed: 7 });
  drive = new DriveClient({ baseUrl: service.url, token: service.token, timeoutMs: 3000 });
  const { driveId, contentId, singleVersionContentId } = service.demoDrive;
  asset = { driveId, contentId };
  singleVersionAsset = { driveId, contentId: singleVersionContentId };
});

afterEach(async () => {
  await drive.close();
  await service.close();
});

async function allVersions(of = asset): Promise<Version[]> {
  const versions: Version[] = [];
  for await (const version of drive.versions.list(of)) versions.push(version);
  return versions;
}

function activeVersions(versions: Version[]): number[] {
  return versions.filter((version) => version.is_active).map((version) => version.version_number);
}

/** Runs `action` and returns the requests the drive service received meanwhile, as they arrived. */
async function requestsDuring(action: () => Promise<unknown>): Promise<string[]> {
  const before = service.requestCount;
  await action().catch(() => undefined);
  const count = service.requestCount - before;
  return count === 0 ? [] : service.recentRequests().slice(-count).map((received) => `${received.method} ${received.target}`);
}

async function rawRequest(method: 'GET' | 'PATCH', path: string, headers: Record<string, string>, body?: string) {
  const response = await request(service.url + path, { method, headers, body });
  return { status: response.statusCode, headers: response.headers, body: await response.body.json() };
}

async function control(action: Record<string, unknown>): Promise<unknown> {
  const response = await request(`${service.url}/__sim/control`, { method: 'POST', body: JSON.stringify(action) });
  expect(response.statusCode).toBe(200);
  return response.body.json();
}

/** Adds an asset with `versions` versions to the demo drive (control action addAsset). */
async function addAsset(versions: number): Promise<{ driveId: string; contentId: string }> {
  const answer = (await control({ action: 'addAsset', versions })) as { asset: { driveId: string; contentId: string } };
  return answer.asset;
}

const MICROSECOND_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

describe('listing versions', () => {
  it('iterates the 40-version asset with the default page size: 40 versions, newest first, in 3 requests', async () => {
    let versions: Version[] = [];
    const requests = await requestsDuring(async () => {
      versions = await allVersions();
    });
    expect(versions.map((version) => version.version_number)).toEqual(Array.from({ length: 40 }, (_, index) => 40 - index));
    const path = `/v1/drives/${asset.driveId}/content/${asset.contentId}/versions`;
    // Page 1 alone tells last_page; pages 2 and 3 are then asked for together and may arrive in either order.
    expect(requests[0]).toBe(`GET ${path}?page=1`);
    expect([...requests].sort()).toEqual([`GET ${path}?page=1`, `GET ${path}?page=2`, `GET ${path}?page=3`]);
  });

  it('lists 5,000 versions with 20 ms latency in order, with exactly one request per page', async () => {
    const bulk = await addAsset(5000);
    await control({ action: 'latency', ms: 20 });
    const numbers: number[] = [];
    const requests = await requestsDuring(async () => {
      for await (const version of drive.versions.list({ ...bulk, perPage: 100 })) numbers.push(version.version_number);
    });
    expect(numbers).toEqual(Array.from({ length: 5000 }, (_, index) => 5000 - index));
    const pages = requests.map((line) => Number(/[?&]page=(\d+)/.exec(line)?.[1]));
    expect(pages[0]).toBe(1);
    expect([...pages].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
  });

  it('asks for pages by number with the chosen perPage and yields the same versions', async () => {
    const byTen: Version[] = [];
    const requests = await requestsDuring(async () => {
      for await (const version of drive.versions.list({ ...asset, perPage: 10 })) byTen.push(version);
    });
    expect(requests).toHaveLength(4);
    expect(requests.every((line) => line.includes('per_page=10'))).toBe(true);
    expect(byTen).toEqual(await allVersions());
  });

  it('reads one page with its links and meta, leaving the default per_page out of the links', async () => {
    const page = await drive.versions.list({ ...asset, page: 2 }).page();
    const path = `${service.url}/v1/drives/${asset.driveId}/content/${asset.contentId}/versions`;
    expect(page.data.map((version) => version.version_number)).toEqual(Array.from({ length: 15 }, (_, index) => 25 - index));
    expect(page.links).toEqual({ first: `${path}?page=1`, last: `${path}?page=3`, prev: `${path}?page=1`, next: `${path}?page=3` });
    expect(page.meta).toMatchObject({ current_page: 2, from: 16, to: 30, last_page: 3, per_page: 15, total: 40, path });
    expect(page.meta.links.map((link) => [link.label, link.active])).toEqual([
      ['&laquo; Previous', false],
      ['1', false],
      ['2', true],
      ['3', false],
      ['Next &raquo;', false],
    ]);
  });

  it('writes a per_page other than the default into every link', async () => {
    const page = await drive.versions.list({ ...asset, perPage: 20 }).page();
    const path = `${service.url}/v1/drives/${asset.driveId}/content/${asset.contentId}/versions`;
    expect(page.links).toEqual({ first: `${path}?per_page=20&page=1`, last: `${path}?per_page=20&page=2`, prev: null, next: `${path}?per_page=20&page=2` });
    expect(page.meta.links.filter((link) => link.url !== null).every((link) => link.url?.includes('per_page=20'))).toBe(true);
  });

  it('answers a page past the end with its number, empty data and null from/to', async () => {
    const page = await drive.versions.list({ ...asset, page: 9 }).page();
    expect(page.data).toEqual([]);
    expect(page.meta).toMatchObject({ current_page: 9, from: null, to: null, last_page: 3, total: 40 });
    expect(page.links.next).toBeNull();
  });

  it('iterates from the chosen page on, and a start past the end yields nothing after one request', async () => {
    const fromPageTwo: Version[] = [];
    for await (const version of drive.versions.list({ ...asset, page: 2 })) fromPageTwo.push(version);
    expect(fromPageTwo.map((version) => version.version_number)).toEqual(Array.from({ length: 25 }, (_, index) => 25 - index));
    const requests = await requestsDuring(async () => {
      for await (const version of drive.versions.list({ ...asset, page: 4 })) fromPageTwo.push(version);
    });
    expect(requests).toHaveLength(1);
    expect(fromPageTwo).toHaveLength(25);
  });

  it('lists an asset with no versions yet as one empty page: last_page 1, from and to null', async () => {
    const empty = { driveId: asset.driveId, contentId: service.demoDrive.emptyContentId };
    const page = await drive.versions.list(empty).page();
    expect(page.data).toEqual([]);
    expect(page.meta).toMatchObject({ current_page: 1, from: null, to: null, last_page: 1, total: 0 });
    expect(page.links.prev).toBeNull();
    expect(page.links.next).toBeNull();
    expect(await allVersions(empty)).toEqual([]);
  });

  it('lists the single-version asset as one page whose only version is active', async () => {
    const page = await drive.versions.list(singleVersionAsset).page();
    expect(page.meta).toMatchObject({ current_page: 1, from: 1, to: 1, last_page: 1, total: 1 });
    expect(page.links.prev).toBeNull();
    expect(page.links.next).toBeNull();
    expect(activeVersions(page.data)).toEqual([1]);
  });

  it('refuses a perPage that is not a whole number from 1 up without sending anything', async () => {
    const requests = await requestsDuring(async () => {
      await expect(drive.versions.list({ ...asset, perPage: 0 }).page()).rejects.toBeInstanceOf(InvalidInputError);
    });
    expect(requests).toEqual([]);
  });

  it('passes a perPage above the simulator maximum to the server, which refuses it with 422', async () => {
    const error = await drive.versions.list({ ...asset, perPage: 101 }).page().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 422, body: { error: { message: 'The given data was invalid.' } } });
  });
});

describe('reading and updating a version', () => {
  it('reads a version with every field of the spec and microsecond UTC timestamps', async () => {
    const [newest] = await allVersions();
    const version = await drive.versions.get({ ...asset, versionId: newest?.id ?? '' });
    expect(version).toEqual(newest);
    expect(Object.keys(version).sort()).toEqual(
      [
        'id', 'asset_id', 'label', 'thumbnail', 'version_number', 'filesize_bytes', 'type', 'status', 'url',
        'is_active', 'created_at', 'updated_at', 'uploaded_by_user', 'uploaded_by_user_status',
      ].sort(),
    );
    expect(version.created_at).toMatch(MICROSECOND_UTC);
    expect(version.updated_at).toMatch(MICROSECOND_UTC);
  });

  it('sets a label, moves updated_at forward and keeps the change', async () => {
    const versionId = (await allVersions())[5]?.id ?? '';
    const before = await drive.versions.get({ ...asset, versionId });
    const updated = await drive.versions.update({ ...asset, versionId, label: 'Dress rehearsal' });
    expect(updated).toMatchObject({ id: versionId, label: 'Dress rehearsal' });
    expect(updated?.updated_at).toMatch(MICROSECOND_UTC);
    expect(updated && updated.updated_at > before.updated_at).toBe(true);
    expect(await drive.versions.get({ ...asset, versionId })).toEqual(updated);
  });

  it('set_active true makes that version the only active one', async () => {
    const target = (await allVersions()).find((version) => version.version_number === 12);
    const updated = await drive.versions.update({ ...asset, versionId: target?.id ?? '', setActive: true });
    expect(updated?.is_active).toBe(true);
    expect(activeVersions(await allVersions())).toEqual([12]);
  });

  it('set_active true moves updated_at of the version it activates and of the one it deactivates, no other', async () => {
    const before = await allVersions();
    const wasActive = before.find((version) => version.is_active);
    const target = before.find((version) => version.version_number === 12);
    const updated = await drive.versions.update({ ...asset, versionId: target?.id ?? '', setActive: true });
    expect(updated?.updated_at).toMatch(MICROSECOND_UTC);
    expect(updated && target && updated.updated_at > target.updated_at).toBe(true);

    const after = await allVersions();
    const changed = after.filter((version, index) => version.updated_at !== before[index]?.updated_at);
    expect(changed.map((version) => version.version_number).sort((a, b) => a - b)).toEqual([12, wasActive?.version_number]);
    expect(after.find((version) => version.id === wasActive?.id)?.is_active).toBe(false);
  });

  it('set_active false changes nothing, not even updated_at', async () => {
    const before = await allVersions();
    const active = before.find((version) => version.is_active);
    await drive.versions.update({ ...asset, versionId: active?.id ?? '', setActive: false });
    const inactive = before.find((version) => !version.is_active);
    await drive.versions.update({ ...asset, versionId: inactive?.id ?? '', setActive: false });
    expect(await allVersions()).toEqual(before);
  });

  it('answers malformed JSON with 400 in the spec error shape', async () => {
    const [newest] = await allVersions();
    const path = `/v1/drives/${asset.driveId}/content/${asset.contentId}/versions/${newest?.id ?? ''}`;
    const answer = await rawRequest('PATCH', path, { authorization: `Token ${service.token}`, 'content-type': 'application/json' }, '{"label":');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: { message: 'Bad request', details: 'The request body is not valid JSON.' } });
  });
});

describe('deleting a version', () => {
  it('makes the next most recent version active when the active one is deleted', async () => {
    const [newest, secondNewest] = await allVersions();
    expect(newest?.is_active).toBe(true);
    await drive.versions.delete({ ...asset, versionId: newest?.id ?? '' });
    const remaining = await allVersions();
    expect(remaining).toHaveLength(39);
    expect(remaining.some((version) => version.id === newest?.id)).toBe(false);
    expect(activeVersions(remaining)).toEqual([secondNewest?.version_number]);
  });

  it('makes the newest remaining version active when an active version that is not the newest is deleted', async () => {
    const versions = await allVersions();
    const twelfth = versions.find((version) => version.version_number === 12);
    await drive.versions.update({ ...asset, versionId: twelfth?.id ?? '', setActive: true });
    await drive.versions.delete({ ...asset, versionId: twelfth?.id ?? '' });
    const remaining = await allVersions();
    expect(remaining.some((version) => version.id === twelfth?.id)).toBe(false);
    // Not version 11 or 13, the neighbours: the README reads "next most recent" as the most recent remaining.
    expect(activeVersions(remaining)).toEqual([40]);
  });

  it('leaves the active version alone when another one is deleted', async () => {
    const versions = await allVersions();
    await drive.versions.delete({ ...asset, versionId: versions[10]?.id ?? '' });
    expect(activeVersions(await allVersions())).toEqual(activeVersions(versions));
  });

  it('refuses to delete the last remaining version with 409 and leaves it in place', async () => {
    const [only] = await allVersions(singleVersionAsset);
    const error = await drive.versions.delete({ ...singleVersionAsset, versionId: only?.id ?? '' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({
      status: 409,
      body: { error: { message: 'Cannot delete the last version', details: expect.any(String) as unknown } },
    });
    expect(await allVersions(singleVersionAsset)).toEqual([only]);
  });

  it('sends a DELETE that failed with 503 only once and says how to check, where a GET is retried', async () => {
    const [newest] = await allVersions();
    await control({ action: 'failNext', status: 503, count: 1 });
    const getRequests = await requestsDuring(() => drive.versions.get({ ...asset, versionId: newest?.id ?? '' }));
    expect(getRequests).toHaveLength(2);

    await control({ action: 'failNext', status: 503, count: 1 });
    let error: unknown;
    const deleteRequests = await requestsDuring(async () => {
      error = await drive.versions.delete({ ...asset, versionId: newest?.id ?? '' }).catch((caught: unknown) => caught);
    });
    expect(deleteRequests).toHaveLength(1);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).message).toContain('list the versions before deleting again');
  });

  it('adds a bulk asset on request, which reset removes again', async () => {
    const bulk = await addAsset(120);
    await expect(drive.versions.list(bulk).page()).resolves.toMatchObject({ meta: { total: 120, last_page: 8 } });
    await control({ action: 'reset' });
    await expect(drive.versions.list(bulk).page()).rejects.toMatchObject({ name: 'DriveNotFoundError', resource: 'content' });
  });

  it('restores the seeded versions on reset', async () => {
    const seeded = await allVersions();
    await drive.versions.delete({ ...asset, versionId: seeded[0]?.id ?? '' });
    await control({ action: 'reset' });
    expect(await allVersions()).toEqual(seeded);
  });
});

describe('errors', () => {
  it.each([
    ['drive', { driveId: 'no-such-drive' }, 'Drive not found', 'no-such-drive'],
    ['content', { contentId: 'no-such-content' }, 'Content not found', 'no-such-content'],
    ['version', { versionId: 'no-such-version' }, 'Content Version not found', 'no-such-version'],
  ] as const)('a missing %s is a DriveNotFoundError that names it', async (resource, override, serverMessage, id) => {
    const error = await drive.versions.get({ ...asset, versionId: 'ver_unknown', ...override }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DriveNotFoundError);
    expect(error).toMatchObject({ resource, status: 404, body: { error: { message: serverMessage, details: serverMessage } } });
    expect((error as Error).message).toContain(id);
  });

  it('a wrong token is an AuthError that shows the token nowhere, and the client does not either', async () => {
    const secret = 'wrong-token-5f3c9a1e77';
    const wrong = new DriveClient({ baseUrl: service.url, token: secret });
    const error = await wrong.versions.list(asset).page().catch((caught: unknown) => caught);
    await wrong.close();
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ status: 401 });
    expect((error as AuthError).body).toEqual({ error: { message: 'Unauthenticated', details: expect.any(String) as unknown } });
    const views = [(error as Error).message, (error as Error).stack ?? '', JSON.stringify(error), inspect(error, { depth: 10, showHidden: true })];
    for (const view of views) {
      expect(view).not.toContain(secret);
    }
    expect(JSON.stringify(wrong)).not.toContain(secret);
    expect(inspect(wrong, { depth: 10, showHidden: true })).not.toContain(secret);
  });

  it('a revoked token is refused with 401', async () => {
    const revoked = new DriveClient({ baseUrl: service.url, token: service.otherTokens.revoked });
    await expect(revoked.versions.list(asset).page()).rejects.toMatchObject({ name: 'AuthError', status: 401 });
    await revoked.close();
  });

  it.each([
    ['missing', {}, 'No API token'],
    ['malformed', { authorization: 'Bearer abc' }, 'Malformed Authorization header'],
  ])('a %s token is answered 401 in the spec error shape', async (_, headers: Record<string, string>, details) => {
    const answer = await rawRequest('GET', `/v1/drives/${asset.driveId}/content/${asset.contentId}/versions`, headers);
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe('Token');
    expect(answer.body).toEqual({ error: { message: 'Unauthenticated', details: expect.stringContaining(details) as unknown } });
  });

  it('a token without version rights may read versions but not change them', async () => {
    const reader = new DriveClient({ baseUrl: service.url, token: service.otherTokens.withoutVersionRights });
    const before = await allVersions();
    const versionId = before[3]?.id ?? '';
    await expect(reader.versions.list(asset).page()).resolves.toMatchObject({ meta: { total: 40 } });
    await expect(reader.versions.get({ ...asset, versionId })).resolves.toMatchObject({ id: versionId });
    await expect(reader.versions.update({ ...asset, versionId, setActive: true })).rejects.toMatchObject({ name: 'AuthError', status: 403 });
    await expect(reader.versions.delete({ ...asset, versionId })).rejects.toMatchObject({ name: 'AuthError', status: 403 });
    await reader.close();
    expect(await allVersions()).toEqual(before);
  });

  it('sends ids containing / and .. as single encoded path segments', async () => {
    const error = await drive.versions.get({ driveId: asset.driveId, contentId: 'a/b', versionId: '..' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'DriveNotFoundError', resource: 'content' });
    const [received] = service.recentRequests().slice(-1);
    expect(received?.segments).toEqual(['v1', 'drives', asset.driveId, 'content', 'a/b', 'versions', '..']);
    expect(received?.target).toBe(`/v1/drives/${asset.driveId}/content/a%2Fb/versions/%2E%2E`);

    const dotDot = await drive.versions.get({ ...asset, driveId: '..', versionId: '../..' }).catch((caught: unknown) => caught);
    expect(dotDot).toMatchObject({ name: 'DriveNotFoundError', resource: 'drive' });
    expect(service.recentRequests().at(-1)?.segments).toEqual(['v1', 'drives', '..', 'content', asset.contentId, 'versions', '../..']);
  });
});

describe('deadlines and cancelling', () => {
  it('gives a TimeoutError when the drive answers later than timeoutMs', async () => {
    await control({ action: 'latency', ms: 5000 });
    const impatient = new DriveClient({ baseUrl: service.url, token: service.token, timeoutMs: 100, retries: 0 });
    await expect(impatient.versions.list(asset).page()).rejects.toBeInstanceOf(TimeoutError);
    await impatient.close();
  });

  it('sends nothing for a call whose signal is already aborted', async () => {
    const requests = await requestsDuring(async () => {
      await expect(drive.versions.list({ ...asset, signal: AbortSignal.abort() }).page()).rejects.toBeInstanceOf(AbortedError);
    });
    expect(requests).toEqual([]);
  });
});

describe('lifecycle', () => {
  it('closes the client and the service more than once without error', async () => {
    await allVersions();
    await drive.close();
    await drive.close();
    await service.close();
    await service.close();
  });
});
