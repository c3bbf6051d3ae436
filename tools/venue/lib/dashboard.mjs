// The Node-RED Dashboard (Dashboard 2.0) for `pnpm start`: the copy `pnpm install` put in the workspace from the
// npm registry, so the show-monitor example runs on a machine with no internet.
import { mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const DASHBOARD = '@flowfuse/node-red-dashboard';
const require = createRequire(import.meta.url);

/** The nodes package as the workspace links it: its example flows are what `pnpm start` deploys. */
export const nodesPackageDir = dirname(require.resolve('@stagelink/node-red/package.json'));
const EXAMPLE = join(nodesPackageDir, 'examples', 'show-monitor-dashboard.json');

/**
 * Links the dashboard into the user dir's node_modules, where Node-RED looks for nodes. A link rather than a copy:
 * the dashboard's own dependencies resolve from where pnpm keeps them. Returns its name and version.
 */
export function installDashboard(userDir) {
  const source = realpathSync(dirname(require.resolve(`${DASHBOARD}/package.json`)));
  const target = join(userDir, 'node_modules', ...DASHBOARD.split('/'));
  rmSync(target, { recursive: true, force: true });
  mkdirSync(dirname(target), { recursive: true });
  symlinkSync(source, target, 'dir');
  const { version } = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
  return { name: DASHBOARD, version };
}

/** Where Node-RED serves the show-monitor page: the example's dashboard path, then its page's. */
export function showMonitorPath() {
  const nodes = JSON.parse(readFileSync(EXAMPLE, 'utf8'));
  const base = nodes.find((node) => node.type === 'ui-base');
  const page = nodes.find((node) => node.type === 'ui-page');
  if (!base || !page) throw new Error(`${EXAMPLE} has no dashboard page: it needs a ui-base and a ui-page node.`);
  return `${base.path}${page.path}`;
}
