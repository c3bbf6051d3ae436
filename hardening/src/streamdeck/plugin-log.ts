import { brief } from '../report/clear-error.js';
import type { Tally } from '../report/tally.js';
import type { LaunchedDeck } from './deck.js';

/** How many of the plugin's uncaught errors are quoted; the rest are counted in one line. */
const QUOTED = 5;

/**
 * The plugin's last-resort handlers log what no handler caught and carry on: each such line is a bug, even if
 * the plugin lived on. Read before the plugin is closed (closing removes its folder and logs).
 */
export function checkPluginLog(launched: LaunchedDeck, tally: Tally): void {
  if (process.env.HARDENING_DUMP_PLUGIN_LOG) console.log(launched.logs());
  const uncaught = launched.logs().split('\n').filter((line) => /Uncaught exception|Unhandled rejection/.test(line));
  for (const line of uncaught.slice(0, QUOTED)) tally.finding(`plugin log: ${brief(line, 240)}`);
  if (uncaught.length > QUOTED) tally.finding(`... ${uncaught.length - QUOTED} more uncaught errors in the plugin log`);
}
