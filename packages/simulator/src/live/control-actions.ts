import type { ControlPanel } from '../control.js';
import { BadRequest } from '../http-errors.js';
import { MAX_LATENCY_MS, optionalWholeNumber, wholeNumber } from '../control-params.js';
import { MAX_BACK_TO_BACK_MS } from '../options.js';
import type { LiveUpdateServer } from './live-server.js';

/** The live-update faults of `/__sim/control`, and the `live` part of its summary. */
export function registerLiveActions(panel: ControlPanel, live: LiveUpdateServer): void {
  panel.register('dropSockets', () => live.dropSockets());
  panel.register('refuseUpgrades', (params) => live.setRefuseUpgrades(params.boolean('on')));
  panel.register('stallUpgrades', (params) => live.setStallUpgrades(params.boolean('on')));
  // A director still starting up accepts the TCP connection and never answers the upgrade.
  panel.register('holdUpgrades', (params) => live.holdUpgrades(wholeNumber(params, 'ms', 0, MAX_LATENCY_MS)));
  panel.register('pause', (params) => live.setPaused(params.boolean('on')));
  panel.register('malformedFrame', () => live.sendMalformedFrame());
  panel.register('silentLive', (params) => {
    const pattern = params.text('pattern');
    if (pattern === '') throw new BadRequest('pattern must name part of an object expression, such as "fps" or "transportmanager" (got "").');
    const property = params.raw('property') === undefined ? undefined : params.text('property');
    if (property === '') throw new BadRequest('property, when given, must name part of a property expression, such as "tcStatusString" (got "").');
    const on = params.boolean('on');
    live.setSilent(pattern, on, optionalWholeNumber(params, 'afterValues', 0, 1_000_000, 0), property);
  });
  panel.register('liveOnChangeOnly', (params) => live.setOnChangeOnly(params.boolean('on')));
  panel.register('backToBack', (params) => live.setBackToBack(wholeNumber(params, 'ms', 0, MAX_BACK_TO_BACK_MS)));
  // A director that loses (or cannot read) every frame: each is answered "Invalid JSON"; `live.framesReceived` counts them.
  panel.register('loseLiveFrames', (params) => live.setLoseFrames(params.boolean('on')));
  panel.register('lateLiveAnswers', (params) => live.setLateAnswers(wholeNumber(params, 'ms', 0, MAX_LATENCY_MS)));
  panel.addSummaryPart('live', () => ({ ...live.stats(), faults: live.faults }));
}
