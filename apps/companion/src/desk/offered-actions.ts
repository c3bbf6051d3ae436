/**
 * The actions whose command the connected director does not offer, as its own description says: each keeps its
 * id (saved buttons keep working on a director that offers it) and says in its name and description why it sends
 * nothing here. Pressed anyway, core refuses it unsent and the failure is logged as any other.
 */
import type { CompanionActionDefinitions } from '@companion-module/base';
import { endpointList, type EndpointSpec, LAYER_OPERATION_COMMANDS } from '@stagelink/core';
import { LAYER_ACTIONS } from './renderstream-actions.js';
import { TRANSPORT_ACTION_ID_LIST, TRANSPORT_ACTION_IDS } from './saved-ids.js';

/** The command each action sends, by action id: a transport action's is `transport/<command>`. */
export const ACTION_COMMANDS: Readonly<Record<string, EndpointSpec>> = Object.fromEntries([
  ...TRANSPORT_ACTION_ID_LIST.flatMap((actionId) => {
    const path = `/api/session/transport/${TRANSPORT_ACTION_IDS[actionId].command}`;
    const spec = endpointList.find((endpoint) => endpoint.method === 'POST' && endpoint.path === path);
    return spec ? [[actionId, spec] as const] : [];
  }),
  ...Object.entries(LAYER_ACTIONS).map(([actionId, operation]) => [actionId, LAYER_OPERATION_COMMANDS[operation]] as const),
]);

/** Marks the actions `notOffered` names (it answers the description's API version, '' when it gives none). */
export function markNotOffered(actions: CompanionActionDefinitions, notOffered: (spec: EndpointSpec) => string | undefined): CompanionActionDefinitions {
  const marked: CompanionActionDefinitions = {};
  for (const [id, action] of Object.entries(actions)) {
    const spec = ACTION_COMMANDS[id];
    const version = spec && action ? notOffered(spec) : undefined;
    if (!action || !spec || version === undefined) {
      marked[id] = action;
      continue;
    }
    const api = version === '' ? 'API' : `API ${version}`;
    const command = spec.path.replace(/^\/api\/session\//, '');
    marked[id] = {
      ...action,
      name: `${action.name} (not offered by this director, ${api})`,
      description: `This director's ${api} offers no \`${command}\`, as its own description says: pressed here, it sends nothing and fails. It works again on a director that offers it.`,
    };
  }
  return marked;
}
