import type { Ref } from '@stagelink/core';
import type { ControlPanel } from './control.js';
import { MAX_LATENCY_MS, optionalWholeNumber, requestPath, wholeNumber } from './control-params.js';
import type { Faults } from './faults.js';
import { BadRequest } from './http-errors.js';
import { MAX_BODY_BYTES } from './http-server.js';
import type { JsonFields } from './routes/json-fields.js';
import type { SessionState } from './state/session-state.js';

export interface ControlTarget {
  readonly faults: Faults;
  readonly state: SessionState;
  /** Rebuilds the session from the scenario and seed, logs out and clears every fault. */
  reset(): void;
}

/**
 * The media-server port's own actions: status, latency, failNext, login, reset, projectOption, selectTransport,
 * listActiveTransports, renameTransport, freezePlayhead, jumpPlayhead, machineFps, leaveSession, stallBody and slowAnswer.
 */
export function registerCoreActions(panel: ControlPanel, target: ControlTarget): void {
  panel.register('status', () => undefined); // changes nothing: answers the summary
  panel.register('latency', (params) => {
    const jitterMs = optionalWholeNumber(params, 'jitterMs', 0, MAX_LATENCY_MS, 0);
    target.faults.setLatency(wholeNumber(params, 'ms', 0, MAX_LATENCY_MS), jitterMs);
  });
  panel.register('failNext', (params) => {
    const status = wholeNumber(params, 'status', 400, 599);
    const count = optionalWholeNumber(params, 'count', 0, 1_000_000, 1);
    target.faults.failNextRequests(status, count);
  });
  // The documents do not show how to log in; on an SMC with accounts, logging in also re-creates a cleared account.
  panel.register('login', (params) => {
    target.state.hardware.loggedIn = params.boolean('loggedIn');
    if (target.state.hardware.loggedIn) target.state.hardware.accountsErased = false;
  });
  panel.register('reset', () => target.reset());
  // Project options are set in the project, not through the API (`enableTransportSpeedControl`).
  panel.register('projectOption', (params) => {
    const name = params.text('name');
    if (params.boolean('on')) target.state.projectOptions.add(name);
    else target.state.projectOptions.delete(name);
  });
  // The API has no call that selects the active transport; tests and demos pick it here.
  panel.register('selectTransport', (params) => target.state.transports.selectActive(params.ref('transport')));
  panel.register('listActiveTransports', (params) => target.state.transports.listActive(params.refs('transports')));
  // Projects name transports as their operators like, with brackets, dots and slashes (`Stage (L)`).
  panel.register('renameTransport', (params) => target.state.transports.rename(transportOf(params), params.text('name')));
  // What no API command does: a render that sticks while the transport still plays, an operator moving the
  // playhead on the Designer timeline.
  panel.register('freezePlayhead', (params) => target.state.transports.freezePlayhead(transportOf(params), params.boolean('on')));
  panel.register('jumpPlayhead', (params) => {
    const track = params.raw('track') === undefined ? undefined : refOrName(params, 'track');
    target.state.transports.jumpPlayhead(transportOf(params), params.number('time'), track);
  });
  // Faults venues report: large answers that stop after their headers (an MTU mismatch), commands that answer late.
  panel.register('stallBody', (params) => {
    const path = requestPath(params, 'path');
    const on = params.boolean('on');
    const afterBytes = params.raw('afterBytes') === undefined ? undefined : wholeNumber(params, 'afterBytes', 0, MAX_BODY_BYTES);
    target.faults.stalledAnswers.set(path, on, afterBytes);
  });
  // Every simulated machine's FPS hovers near 59.94: a test fixes one machine's to tell which machine a reading is from.
  panel.register('machineFps', (params) => {
    const machine = target.state.machines.byHostname(params.text('hostname'));
    if (!machine) throw new BadRequest(`hostname must name a machine of the session: ${target.state.machines.hostnames().join(', ')}.`);
    const fps = params.raw('fps') === undefined ? undefined : params.number('fps');
    if (fps !== undefined && !(Number.isFinite(fps) && fps > 0)) throw new BadRequest(`fps must be a number above 0 (got ${fps}).`);
    if (fps === undefined) target.state.fixedFps.delete(machine.hostname.toLowerCase());
    else target.state.fixedFps.set(machine.hostname.toLowerCase(), fps);
  });
  // An operator taking a machine out of the session while the show runs (only a free understudy, here).
  panel.register('leaveSession', (params) => target.state.machines.removeUnderstudy(params.text('hostname')));
  panel.register('slowAnswer', (params) => {
    const ms = wholeNumber(params, 'ms', 0, MAX_LATENCY_MS);
    const path = params.raw('path') === undefined ? undefined : requestPath(params, 'path');
    target.faults.slowAnswers.set(ms, path);
  });
}

/** `transport` as a Ref, or as a name alone: `"main"` reads as `{"name": "main"}`. */
function transportOf(params: JsonFields): Ref {
  return refOrName(params, 'transport');
}

function refOrName(params: JsonFields, key: string): Ref {
  const value = params.raw(key);
  return typeof value === 'string' && value !== '' ? { name: value } : params.ref(key);
}
