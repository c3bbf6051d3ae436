// SHA256SUMS as `sha256sum -c` reads it: "<hex>  <file>" per line.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const sha256Of = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

export function sha256Sums(dir, files) {
  return files.map((file) => `${sha256Of(join(dir, file))}  ${file}\n`).join('');
}
