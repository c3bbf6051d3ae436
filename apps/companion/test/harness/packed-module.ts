/**
 * The packed module as Companion's "Import module" takes it: the `.tgz` that `companion-module-build` writes,
 * unpacked into a directory of its own, its manifest read and its entry loaded from where the manifest says.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { InstanceBase, InstanceTypes } from '@companion-module/base';
import type { ModuleManifest } from '@companion-module/base/manifest';

/** Where `pnpm build` leaves the `.tgz`. */
export const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface PackedModule {
  /** The unpacked `<id>` directory. */
  dir: string;
  manifest: ModuleManifest;
  /** The entry's default export: the module's InstanceBase class. */
  ModuleClass: new (context: unknown) => InstanceBase<InstanceTypes>;
  /** The entry's `UpgradeScripts`. */
  upgradeScripts: unknown[];
}

/**
 * The `.tgz` that the last build wrote for the package's current version (one left from an earlier version is
 * ignored); throws when there is none, naming the command that makes it.
 */
export function packedTarball(packageDir = PACKAGE_DIR): string {
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const tarball = `stagelink-mediaserver-${version}.tgz`;
  if (!existsSync(join(packageDir, tarball))) throw new Error(`No ${tarball} in ${packageDir}: run \`pnpm --filter @stagelink/companion build\`.`);
  return join(packageDir, tarball);
}

/** Unpacks the tarball into a fresh directory and loads its entry. */
export async function loadPackedModule(tarball = packedTarball()): Promise<PackedModule> {
  const into = mkdtempSync(join(tmpdir(), 'stagelink-companion-'));
  execFileSync('tar', ['-xzf', tarball, '-C', into]);
  const [id] = readdirSync(into);
  if (id === undefined) throw new Error(`${tarball} is empty.`);
  const dir = join(into, id);
  const manifest = JSON.parse(readFileSync(join(dir, 'companion', 'manifest.json'), 'utf8')) as ModuleManifest;
  const entry = resolve(dir, 'companion', manifest.runtime.entrypoint);
  const loaded = (await import(pathToFileURL(entry).href)) as { default?: PackedModule['ModuleClass']; UpgradeScripts?: unknown[] };
  if (typeof loaded.default !== 'function') throw new Error(`${entry} has no default export: Companion could not start it.`);
  return { dir, manifest, ModuleClass: loaded.default, upgradeScripts: loaded.UpgradeScripts ?? [] };
}
