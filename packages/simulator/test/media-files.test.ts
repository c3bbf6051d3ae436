import { describe, expect, it } from 'vitest';
import { StatusCode } from '../src/state/refusal.js';
import { demoState, refusalOf } from './support/demo-state.js';

const paths = (files: { path: string }[]) => files.map((file) => file.path);

describe('media files', () => {
  it('lists the files of a directory recursively, whatever the separators', () => {
    const { media } = demoState();
    expect(paths(media.list('video'))).toEqual(['video/intro.mov', 'video/loops/ocean.mov', 'video/loops/sunrise.mov', 'video/loops/city.mov']);
    expect(paths(media.list('\\video\\loops\\'))).toHaveLength(3);
    expect(media.list('')).toHaveLength(8);
    expect(media.list('audio')[0]?.size).toMatch(/^\d+$/);
  });

  it('refuses a directory that does not exist, and paths climbing out of the media root', () => {
    const { media } = demoState();
    expect(refusalOf(() => media.list('films')).code).toBe(StatusCode.notFound);
    expect(refusalOf(() => media.list('video/../..')).code).toBe(StatusCode.invalidArgument);
  });

  it('removes a folder with everything in it, and answers a task uid', () => {
    const { media } = demoState();
    expect(media.remove('video/loops')).toMatch(/^\d+$/);
    expect(paths(media.list('video'))).toEqual(['video/intro.mov']);
    expect(refusalOf(() => media.remove('video/loops')).code).toBe(StatusCode.notFound);
    expect(refusalOf(() => media.remove('/')).code).toBe(StatusCode.invalidArgument);
  });

  it('provisions the top-level transfer first, then the listed transfers, writing each destination', () => {
    const { media, provisioning } = demoState();
    const results = provisioning.provision({
      mediaPath: 'https://cdn.example/show/opener.mov',
      localPath: ['video/opener.mov'],
      uid: 'task-1',
      transfers: [{ mediaPath: 'video/intro.mov', uid: '', localPath: ['backup/intro.mov', 'spare/intro.mov'] }],
    });
    expect(results.map(({ taskUid, success, taskType, taskStatusStream }) => ({ taskUid, success, taskType, taskStatusStream }))).toEqual([
      { taskUid: 'task-1', success: true, taskType: 'download', taskStatusStream: 'completed' },
      { taskUid: expect.stringMatching(/^\d+$/) as unknown, success: true, taskType: 'copy', taskStatusStream: 'completed' },
    ]);
    expect(media.find('backup/intro.mov')?.size).toBe(media.find('video/intro.mov')?.size);
    expect(paths(media.list('spare'))).toEqual(['spare/intro.mov']);
  });

  it('fails a transfer whose destination leaves the media root, naming it, and writes nothing for it', () => {
    const { media, provisioning } = demoState();
    const [result] = provisioning.provision({ transfers: [{ mediaPath: 'video/intro.mov', uid: 't', localPath: ['ok/intro.mov', '../escape.mov'] }] });
    expect(result).toMatchObject({ success: false, taskStatusStream: 'failed', errorMessage: { localPath: '../escape.mov' } });
    expect(media.find('ok/intro.mov')).toBeUndefined();
  });

  it('refuses a request with nothing to provision', () => {
    expect(refusalOf(() => demoState().provisioning.provision({})).code).toBe(StatusCode.invalidArgument);
  });
});
