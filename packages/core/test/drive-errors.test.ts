import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { AuthError, ConflictError, DriveNotFoundError, HttpError } from '../src/index.js';
import { DriveCaller } from '../src/drive/drive-caller.js';
import { driveErrorFor } from '../src/drive/errors.js';
import type { HttpClient } from '../src/http/http-client.js';
import { redactSecret } from '../src/drive/redact.js';

const context = { method: 'GET', url: 'http://drive.test/v1/drives/d1/content/c1/versions/v1' };
const ids = { driveId: 'd1', contentId: 'c1', versionId: 'v1' };

function answer(status: number, body: unknown) {
  return driveErrorFor({ status, body, context }, ids);
}

function errorBody(message: string, details = message) {
  return { error: { message, details } };
}

describe('drive error mapping', () => {
  it.each([
    ['Drive not found', 'drive', 'Drive "d1"'],
    ['Content not found', 'content', 'Content "c1"'],
    ['Content Version not found', 'version', 'Version "v1"'],
  ] as const)('reads "%s" as a missing %s and names it', (message, resource, named) => {
    const error = answer(404, errorBody(message));
    expect(error).toBeInstanceOf(DriveNotFoundError);
    expect(error).toMatchObject({ resource, status: 404 });
    expect(error.message).toContain(named);
  });

  it('calls a 404 without a drive error body a wrong address', () => {
    const error = answer(404, 'Not Found');
    expect(error).toMatchObject({ name: 'DriveNotFoundError', resource: undefined });
    expect(error.message).toContain('baseUrl');
  });

  it.each([401, 403])('maps %s to AuthError', (status) => {
    expect(answer(status, errorBody('Unauthenticated'))).toBeInstanceOf(AuthError);
  });

  it('maps 409 to ConflictError with the server message', () => {
    const error = answer(409, errorBody('Cannot delete the last version', 'only version'));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.message).toContain('Cannot delete the last version (only version)');
  });

  it('says a failed DELETE may have happened, and a failed GET nothing of the kind', () => {
    const failedDelete = driveErrorFor({ status: 500, body: undefined, context: { ...context, method: 'DELETE' } }, ids);
    expect(failedDelete).toBeInstanceOf(HttpError);
    expect(failedDelete.message).toContain('list the versions before deleting again');
    expect(answer(500, undefined).message).not.toContain('deleting');
  });
});

describe('redactSecret', () => {
  it('removes a token that a server echoes back, wherever it is', () => {
    const secret = 'tok_8c1d2e';
    const body = { error: { message: `Token ${secret} is revoked`, details: [secret, 3, null] }, [secret]: true };
    const redacted = redactSecret(body, secret);
    expect(JSON.stringify(redacted)).not.toContain(secret);
    expect(redacted).toEqual({
      error: { message: 'Token [redacted] is revoked', details: ['[redacted]', 3, null] },
      '[redacted]': true,
    });
  });

  it('is applied to every error answer before it becomes an error', async () => {
    const secret = 'tok_8c1d2e';
    const echoing = { request: () => Promise.resolve({ status: 401, body: errorBody(`bad token ${secret}`), context }) };
    const caller = new DriveCaller(echoing as unknown as HttpClient, secret);
    const error = await caller.send({ method: 'GET', path: '/v1', ids }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthError);
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(secret);
    expect(JSON.stringify(error)).toContain('bad token [redacted]');
  });
});
