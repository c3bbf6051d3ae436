/**
 * Upgrade scripts, oldest first: one for each release that renames an action, a feedback or an option, so a
 * button saved with any release keeps working. None is ever removed; none is needed yet.
 */
import type { CompanionStaticUpgradeScript } from '@companion-module/base';
import type { ModuleConfig, ModuleSecrets } from './config.js';

export const UpgradeScripts: CompanionStaticUpgradeScript<ModuleConfig, ModuleSecrets>[] = [];
