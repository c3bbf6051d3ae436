import { ConnectionError, InvalidInputError, TimeoutError } from '../errors.js';
import type { RequestOptions } from '../http/request-options.js';
import { isVersion, unexpectedAnswer } from './answers.js';
import type { DriveCaller } from './drive-caller.js';
import { unknownOutcome } from './errors.js';
import { versionPath, type VersionRef } from './paths.js';
import type { Version, VersionUpdateBody } from './types.js';
import { VersionList, type ListVersionsOptions } from './version-list.js';

export type GetVersionOptions = VersionRef & RequestOptions;
export type DeleteVersionOptions = VersionRef & RequestOptions;

export interface UpdateVersionOptions extends VersionRef, RequestOptions {
  label?: string;
  /**
   * `true` makes this version the active one and every other version of the asset inactive. `false` does nothing
   * (the drive API's rule): to change the active version, send `true` on the version that should become active.
   */
  setActive?: boolean;
}

/** The versions of assets in a drive: list, read, update, delete. */
export class DriveVersions {
  readonly #caller: DriveCaller;

  constructor(caller: DriveCaller) {
    this.#caller = caller;
  }

  /** Iterate for every version of every page, or `.page()` for one page with links and meta. */
  list(options: ListVersionsOptions): VersionList {
    return new VersionList(this.#caller, options);
  }

  async get(options: GetVersionOptions): Promise<Version> {
    const response = await this.#caller.send({ method: 'GET', path: versionPath(options), ids: options, ...callOptions(options) });
    if (!isVersion(response.body)) throw unexpectedAnswer(response.context, 'a version');
    return response.body;
  }

  /**
   * Sets the label and/or makes the version active; `setActive: false` does nothing, as the API says. Resolves to
   * the updated version: the one the server answers with, or (the API does not fix PATCH's answer) read back
   * afterwards. Never retried after it may have been sent.
   */
  async update(options: UpdateVersionOptions): Promise<Version> {
    const body = updateBody(options);
    const response = await this.#caller.send({
      method: 'PATCH',
      path: versionPath(options),
      ids: options,
      body,
      ...callOptions(options),
    });
    return isVersion(response.body) ? response.body : this.get(options);
  }

  /**
   * Deletes a version. Deleting the active one makes the most recent remaining version active; deleting the last
   * remaining version is refused (ConflictError from the simulator). Sent at most once unless the connection
   * provably failed before sending: after a lost answer a repeat would report "Content Version not found" for a
   * deletion that happened, so the error says so and leaves checking to the caller.
   */
  async delete(options: DeleteVersionOptions): Promise<void> {
    try {
      await this.#caller.send({
        method: 'DELETE',
        path: versionPath(options),
        ids: options,
        idempotent: false,
        ...callOptions(options),
      });
    } catch (error) {
      throw withUnknownOutcome(error);
    }
  }
}

function callOptions({ signal, timeoutMs }: RequestOptions): RequestOptions {
  return { signal, timeoutMs };
}

function updateBody({ label, setActive }: UpdateVersionOptions): VersionUpdateBody {
  if (label !== undefined && typeof label !== 'string') {
    throw new InvalidInputError(`label must be a string, got ${typeof label}.`);
  }
  if (setActive !== undefined && typeof setActive !== 'boolean') {
    throw new InvalidInputError(`setActive must be true or false, got ${typeof setActive}.`);
  }
  if (label === undefined && setActive === undefined) {
    throw new InvalidInputError('Nothing to update: give label and/or setActive.');
  }
  return { label, set_active: setActive };
}

/** Connection failures and timeouts leave a DELETE's outcome unknown: the message says how to find out. */
function withUnknownOutcome(error: unknown): unknown {
  if (!(error instanceof ConnectionError || error instanceof TimeoutError)) return error;
  const context = { method: error.method ?? 'DELETE', url: error.url ?? '' };
  const message = `${error.message}${unknownOutcome(context)}`;
  return error instanceof TimeoutError
    ? new TimeoutError(message, error.timeoutMs, context)
    : new ConnectionError(message, context, { cause: error });
}
