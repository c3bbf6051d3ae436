import { BadRequest } from './http-errors.js';
import type { ControlPanel } from './control.js';
import type { Faults } from './faults.js';
import type { JsonFields } from './routes/json-fields.js';
import type { SessionState } from './state/session-state.js';

/** The longest latency a test may ask for: a minute. */
export const MAX_LATENCY_MS = 60_000;

export interface ControlTarget {
  readonly faults: Faults;
  readonly state: SessionState;
  /** Rebuilds the session from the scenario and seed, logs out and clears every fault. */
  reset(): void;
}

/** The media-server port's own actions: status, latency, failNext, login, reset, projectOption and selectTransport. */
export function registerCoreActions(panel: ControlPanel, target: ControlTarget): void {
  panel.register('status', () => undefined); // changes nothing: answers the summary
  panel.register('latency', (params) => {
    const jitterMs = params.raw('jitterMs') === undefined ? 0 : wholeNumber(params, 'jitterMs', 0, MAX_LATENCY_MS);
    target.faults.setLatency(wholeNumber(params, 'ms', 0, MAX_LATENCY_MS), jitterMs);
  });
  panel.register('failNext', (params) => {
    const status = wholeNumber(params, 'status', 400, 599);
    const count = params.raw('count') === undefined ? 1 : wholeNumber(params, 'count', 0, 1_000_000);
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
}

function wholeNumber(params: JsonFields, key: string, min: number, max: number): number {
  const value = params.number(key);
  if (!Number.isInteger(value) || value < min || value > max) throw new BadRequest(`${key} must be a whole number from ${min} to ${max} (got ${value}).`);
  return value;
}
