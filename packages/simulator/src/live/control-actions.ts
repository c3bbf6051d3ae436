import type { ControlPanel } from '../control.js';
import type { LiveUpdateServer } from './live-server.js';

/** The live-update faults of `/__sim/control`, and the `live` part of its summary. */
export function registerLiveActions(panel: ControlPanel, live: LiveUpdateServer): void {
  panel.register('dropSockets', () => live.dropSockets());
  panel.register('refuseUpgrades', (params) => live.setRefuseUpgrades(params.boolean('on')));
  panel.register('stallUpgrades', (params) => live.setStallUpgrades(params.boolean('on')));
  panel.register('pause', (params) => live.setPaused(params.boolean('on')));
  panel.register('malformedFrame', () => live.sendMalformedFrame());
  panel.addSummaryPart('live', () => ({ ...live.stats(), faults: { ...live.faults } }));
}
