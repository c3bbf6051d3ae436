import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DriveClient } from '../src/index.js';

const VERSION = {
  id: 'v7',
  version_number: 7,
  label: 'Dress rehearsal',
  is_active: true,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-02T00:00:00Z',
};

let closeAll: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(closeAll.map((close) => close()));
  closeAll = [];
});

/** A drive whose PATCH answers `patchAnswer` (204 with no body when undefined) and whose GET answers the version. */
async function driveAnswering(patchAnswer: unknown): Promise<{ drive: DriveClient; methods: string[] }> {
  const methods: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    req.resume();
    methods.push(req.method ?? '');
    if (req.method === 'PATCH' && patchAnswer === undefined) {
      res.writeHead(204).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(req.method === 'PATCH' ? patchAnswer : VERSION));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const drive = new DriveClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: 'token', retries: 0 });
  closeAll.push(() => drive.close(), () => new Promise((resolve) => server.close(() => resolve())));
  return { drive, methods };
}

describe('updating a version', () => {
  const ref = { driveId: 'd1', contentId: 'c1', versionId: 'v7' };

  it('resolves to the version the drive answers with, without reading it again', async () => {
    const { drive, methods } = await driveAnswering({ ...VERSION, label: 'Opening night' });
    await expect(drive.versions.update({ ...ref, label: 'Opening night' })).resolves.toMatchObject({ id: 'v7', label: 'Opening night' });
    expect(methods).toEqual(['PATCH']);
  });

  it('reads the version back when the drive answers the update with no version', async () => {
    const { drive, methods } = await driveAnswering(undefined);
    await expect(drive.versions.update({ ...ref, setActive: true })).resolves.toMatchObject({ id: 'v7', is_active: true });
    expect(methods).toEqual(['PATCH', 'GET']);
  });
});
