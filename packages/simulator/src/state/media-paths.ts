import { invalidArgument } from './refusal.js';

/**
 * Media paths are relative to the machine's media root, with `/` between folders; `\` is read as `/`, and
 * leading, trailing and repeated separators are dropped. `..` is refused: nothing leaves the media root.
 */
export function normaliseMediaPath(path: string): string {
  const segments = path.replace(/\\/g, '/').split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw invalidArgument(`Media path "${path}" climbs out of the media root with "..".`);
  return segments.join('/');
}

/** Whether `path` is `directory` or inside it; the root ('') holds everything. */
export function isWithin(path: string, directory: string): boolean {
  return directory === '' || path === directory || path.startsWith(`${directory}/`);
}
