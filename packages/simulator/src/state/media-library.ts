import type { MediaFile } from '@stagelink/core';
import type { Clock } from './clock.js';
import { isWithin, normaliseMediaPath } from './media-paths.js';
import { invalidArgument, notFound } from './refusal.js';
import type { UidSource } from './uids.js';

/**
 * The media files of this machine as a virtual tree. Folders exist while they hold a file: the tree has no empty
 * folders. Sizes are byte counts as decimal strings, dates ISO 8601.
 */
export class MediaLibrary {
  readonly #files = new Map<string, MediaFile>();

  constructor(
    private readonly clock: Clock,
    private readonly uids: UidSource,
    files: readonly MediaFile[],
  ) {
    for (const file of files) this.#files.set(normaliseMediaPath(file.path), { ...file, path: normaliseMediaPath(file.path) });
  }

  /** Every file below the directory, recursively; an empty directory means the media root. */
  list(directory: string): MediaFile[] {
    const folder = normaliseMediaPath(directory);
    const files = [...this.#files.values()].filter((file) => file.path !== folder && isWithin(file.path, folder));
    if (files.length === 0 && folder !== '') {
      const why = this.#files.has(folder) ? 'it is a file' : 'no such folder';
      throw notFound(`Directory "${directory}" not found in the media files (${why}).`);
    }
    return files.map((file) => ({ ...file }));
  }

  find(path: string): MediaFile | undefined {
    const file = this.#files.get(normaliseMediaPath(path));
    return file && { ...file };
  }

  /** Removes a file or a folder with everything in it; answers the uid of the (instant) removal task. */
  remove(path: string): string {
    const target = normaliseMediaPath(path);
    if (target === '') throw invalidArgument('Refusing to remove the media root: name a file or folder.');
    const doomed = [...this.#files.keys()].filter((candidate) => isWithin(candidate, target));
    if (doomed.length === 0) throw notFound(`Media path "${path}" not found: nothing to remove.`);
    for (const candidate of doomed) this.#files.delete(candidate);
    return this.uids.next();
  }

  /** Writes a file (a provisioned copy), replacing any file at that path. */
  write(path: string, size: string): MediaFile {
    const normalised = normaliseMediaPath(path);
    const now = new Date(this.clock.now()).toISOString();
    const creationDate = this.#files.get(normalised)?.creationDate ?? now;
    const file = { path: normalised, size, creationDate, lastWriteDate: now };
    this.#files.set(normalised, file);
    return { ...file };
  }
}
