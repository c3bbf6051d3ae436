/**
 * Upgrade scripts, oldest first: one for each release that renames an action, a feedback or an option, so a
 * button saved with any release keeps working. None is ever removed.
 */
import type { CompanionMigrationAction, CompanionStaticUpgradeScript } from '@companion-module/base';
import type { ModuleConfig, ModuleSecrets } from './config.js';

/** The actions that act on one machine's hardware: each names its machine since hardware stopped following the director. */
export const HARDWARE_ACTIONS: readonly string[] = ['oled_message', 'smc_power', 'smc_ledstrip'];

/** What the one SMC of earlier settings is called among the machines' SMCs. */
export const EARLIER_SMC = 'SMC';

/**
 * Hardware actions name their machine. The one SMC address of earlier settings (`smcHost`) becomes the line
 * `SMC=<address>` of the machines' SMCs (its user and password stay the account of every line), and saved hardware
 * actions, which named no machine, name `SMC`: they still go where they went. Without an SMC address they went to
 * whichever machine directed the session; they now name none and are refused until a machine is chosen.
 */
const hardwareNamesItsMachine: CompanionStaticUpgradeScript<ModuleConfig, ModuleSecrets> = (_context, { config, actions }) => {
  const smcHost = typeof config?.['smcHost'] === 'string' ? config['smcHost'].trim() : '';
  let updatedConfig: ModuleConfig | null = null;
  if (config && Object.hasOwn(config, 'smcHost')) {
    const rest: ModuleConfig = { ...config };
    delete rest['smcHost'];
    const smcs = typeof rest['smcs'] === 'string' ? rest['smcs'] : '';
    updatedConfig = { ...rest, smcs: smcHost === '' ? smcs : [smcs, `${EARLIER_SMC}=${smcHost}`].filter((text) => text.trim() !== '').join('\n') };
  }
  const updatedActions: CompanionMigrationAction[] = [];
  for (const action of actions) {
    if (!HARDWARE_ACTIONS.includes(action.actionId) || action.options['machine'] !== undefined) continue;
    action.options = { ...action.options, machine: { isExpression: false, value: smcHost === '' ? '' : EARLIER_SMC } };
    updatedActions.push(action);
  }
  return { updatedConfig, updatedActions, updatedFeedbacks: [] };
};

export const UpgradeScripts: CompanionStaticUpgradeScript<ModuleConfig, ModuleSecrets>[] = [hardwareNamesItsMachine];
