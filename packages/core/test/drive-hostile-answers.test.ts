import { describe, expect, it, onTestFinished } from 'vitest';
import { DriveClient, HttpError } from '../src/index.js';
import { redactSecret } from '../src/drive/redact.js';
import { startScriptedServer } from './support/scripted-server.js';

describe('drive answers a broken server gives (hardening)', () => {
  it('reports a 500 whose body is nested 20,000 deep as an HttpError, not a RangeError', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const server = await startScriptedServer([], (_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(deep);
    });
    const drive = new DriveClient({ baseUrl: server.url, token: 'secret-token', retries: 0 });
    onTestFinished(async () => {
      await drive.close();
      await server.close();
    });
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
