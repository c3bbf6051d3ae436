import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DriveClient, HttpError } from '../src/index.js';
import { redactSecret } from '../src/drive/redact.js';

let cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanup.map((close) => close()));
  cleanup = [];
});

describe('drive answers a broken server gives (hardening)', () => {
  it('reports a 500 whose body is nested 20,000 deep as an HttpError, not a RangeError', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(deep);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const drive = new DriveClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: 'secret-token', retries: 0 });
    cleanup.push(() => drive.close(), () => new Promise((resolve) => server.close(() => resolve())));
    const failure = drive.versions.get({ driveId: 'd', contentId: 'c', versionId: 'v' });
    await expect(failure).rejects.toBeInstanceOf(HttpError);
    await expect(failure).rejects.toThrow(/answered 500: the drive service failed/);
  });

  it('still redacts the token at every depth it keeps, and drops what lies deeper', () => {
    let nested: unknown = 'secret-token';
    for (let level = 0; level < 100; level++) nested = [nested, 'x secret-token y'];
    const text = JSON.stringify(redactSecret(nested, 'secret-token'));
    expect(text).not.toContain('secret-token');
    expect(text).toContain('[redacted]');
    expect(text).toContain('[nested too deeply to show]');
  });
});
