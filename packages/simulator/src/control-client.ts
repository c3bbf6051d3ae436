import { CONTROL_PATH } from './control.js';
import type { SimulatorSummary } from './summary.js';

/** A control action and its parameters, e.g. `{ action: 'latency', ms: 200 }`. */
export interface ControlRequest {
  action: string;
  [parameter: string]: unknown;
}

/**
 * Sends a control action to a simulator port (a machine's media-server port, or the drive port with `T` its own
 * answer) and resolves to what it answers: the state summary after the action. An action the simulator refuses
 * rejects with the simulator's words.
 */
export async function simControl<T = SimulatorSummary>(url: string, request: ControlRequest, { timeoutMs = 10_000 } = {}): Promise<T> {
  const response = await fetch(`${url.replace(/\/+$/, '')}${CONTROL_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const answer: unknown = await response.json();
  if (!response.ok) throw new Error(`Simulator control ${JSON.stringify(request)} answered ${response.status}: ${messageOf(answer)}`);
  return answer as T;
}

function messageOf(answer: unknown): string {
  const message = (answer as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : JSON.stringify(answer);
}
