import type { ProvisionRequest, ProvisionTaskResult, ProvisionTransfer } from '@stagelink/core';
import type { MediaLibrary } from './media-library.js';
import { normaliseMediaPath } from './media-paths.js';
import type { SeededRandom } from './random.js';
import { invalidArgument, Refusal } from './refusal.js';
import type { UidSource } from './uids.js';

const NO_ERROR = { mediaPath: '', localPath: '', message: '' };

/**
 * Provisioning copies (`copy`: a path on another machine) or downloads (`download`: an http(s) URL) media to
 * destinations on this machine. The spec does not say how the top-level fields relate to `transfers`: here the
 * top-level `mediaPath`/`localPath`/`uid` describe one more transfer, done before the listed ones. A transfer's
 * `uid` becomes its task uid (a new one is made when empty). Tasks finish at once: `taskStatusStream` says
 * `completed` or `failed`, and a failed task names the destination and the reason in `errorMessage`.
 */
export class Provisioning {
  constructor(
    private readonly library: MediaLibrary,
    private readonly random: SeededRandom,
    private readonly uids: UidSource,
  ) {}

  provision(request: ProvisionRequest): ProvisionTaskResult[] {
    const transfers = transfersOf(request);
    if (transfers.length === 0) throw invalidArgument('Nothing to provision: give mediaPath and localPath, or transfers.');
    return transfers.map((transfer) => this.#run(transfer));
  }

  #run(transfer: ProvisionTransfer): ProvisionTaskResult {
    const taskUid = transfer.uid || this.uids.next();
    const taskType = /^https?:\/\//i.test(transfer.mediaPath) ? 'download' : 'copy';
    const failed = (localPath: string, message: string): ProvisionTaskResult => ({
      taskUid,
      success: false,
      errorMessage: { mediaPath: transfer.mediaPath, localPath, message },
      taskType,
      taskStatusStream: 'failed',
    });
    if (transfer.mediaPath === '') return failed('', 'No mediaPath given: nothing to copy or download.');
    if (transfer.localPath.length === 0) return failed('', 'No localPath given: no destination on this machine.');
    for (const localPath of transfer.localPath) {
      const problem = destinationProblem(localPath);
      if (problem) return failed(localPath, problem);
    }
    const size = this.library.find(transfer.mediaPath)?.size ?? String(this.random.integer(1_000_000, 2_000_000_000));
    for (const localPath of transfer.localPath) this.library.write(localPath, size);
    return { taskUid, success: true, errorMessage: NO_ERROR, taskType, taskStatusStream: 'completed' };
  }
}

/** Why a destination cannot take a file, checked for all destinations before any is written. */
function destinationProblem(localPath: string): string | undefined {
  try {
    return normaliseMediaPath(localPath) === '' ? `Destination "${localPath}" names the media root, not a file.` : undefined;
  } catch (error) {
    if (error instanceof Refusal) return error.message;
    throw error;
  }
}

function transfersOf(request: ProvisionRequest): ProvisionTransfer[] {
  const topLevel = request.mediaPath || request.localPath?.length || request.uid;
  const first: ProvisionTransfer[] = topLevel
    ? [{ mediaPath: request.mediaPath ?? '', localPath: request.localPath ?? [], uid: request.uid ?? '' }]
    : [];
  return [...first, ...(request.transfers ?? [])];
}
