// An air-gapped machine, as far as npm can tell: `--offline` and a cache that starts empty, so any dependency that
// is not inside the tarball fails the install instead of coming from the registry.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** npm's settings for an offline install, as environment variables (they reach an npm that Node-RED runs, too). */
export function offlineNpmEnv(dir) {
  const cache = join(dir, 'empty-npm-cache');
  mkdirSync(cache, { recursive: true });
  return { npm_config_offline: 'true', npm_config_cache: cache, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
}

/** An empty folder with `tarball` installed into it offline; answers the folder. */
export function installOffline(tarball, name) {
  const dir = mkdtempSync(join(tmpdir(), `stagelink-offline-${name}-`));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `offline-${name}`, private: true }));
  execFileSync('npm', ['install', '--offline', '--cache', offlineNpmEnv(dir).npm_config_cache, '--no-audit', '--no-fund', '--loglevel', 'error', tarball], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return dir;
}
