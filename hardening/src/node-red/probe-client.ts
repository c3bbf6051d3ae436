import type { Wire } from '../gen/values.js';
import { sleep, waitUntil } from '../support/time.js';

export type Outcome =
  | { kind: 'ack' }
  | { kind: 'error'; message: string; source: string | undefined }
  /** No answer within the time limit while Node-RED still answered other requests. */
  | { kind: 'silent' }
  /** Node-RED could not be reached at all. */
  | { kind: 'unreachable'; reason: string };

/** Longer than any stagelink deadline (5 s per call, retries included) plus a page-by-page drive listing. */
export const COMMAND_TIMEOUT_MS = 30_000;

/** Posts one command to a probe and waits for its one answer. */
export async function sendCommand(url: string, probeId: string, fields: Record<string, Wire>, timeoutMs = COMMAND_TIMEOUT_MS): Promise<Outcome> {
  let response: Response;
  try {
    response = await fetch(`${url}/hardening/${probeId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fields }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') return { kind: 'silent' };
    return { kind: 'unreachable', reason: error instanceof Error ? `${error.message} ${String((error.cause as Error | undefined)?.message ?? '')}` : String(error) };
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') return { kind: 'silent' };
    throw error;
  }
  return outcomeOf(response.status, text);
}

function outcomeOf(status: number, text: string): Outcome {
  let body: { outcome?: string; message?: string; source?: string };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return { kind: 'error', message: `harness: Node-RED answered ${status} with ${text.slice(0, 200)}`, source: 'harness' };
  }
  if (body.outcome === 'ack') return { kind: 'ack' };
  return { kind: 'error', message: body.message ?? '', source: body.source };
}

/**
 * Waits until the deployed flow answers with `generation`: the deploy has taken effect. A poll that arrives
 * while its nodes are being replaced goes unanswered, so polls give up early (300 ms, doubling up to 5 s on
 * a slow machine) and ask again.
 */
export async function waitForGeneration(url: string, tab: string, generation: number, timeoutMs = 30_000): Promise<boolean> {
  let attempt = 0;
  const seen = await waitUntil(async () => {
    const pollTimeoutMs = Math.min(300 * 2 ** attempt++, 5000);
    try {
      const response = await fetch(`${url}/hardening/ready/${tab}`, { signal: AbortSignal.timeout(pollTimeoutMs) });
      if (!response.ok) return false;
      return ((await response.json()) as { generation?: number }).generation === generation;
    } catch {
      return false;
    }
  }, timeoutMs, 50);
  return seen === true;
}

export interface LiveRecord {
  values: number;
  /** The last 50 online/offline messages. */
  statuses: string[];
  lastValueAt: number;
  /** When the last 200 values arrived (Date.now() in Node-RED, the same clock as the suite's). */
  valueTimes: number[];
  /** How many times the node said offline. */
  offline: number;
}

export interface ShownStatus {
  id?: string;
  text: string;
  fill?: string;
  shape?: string;
}

export interface Observed {
  live: Record<string, LiveRecord>;
  errors: { outcome: string; message: string; source?: string; sourceId?: string }[];
  statuses: ShownStatus[];
  polluted: string[];
}

export async function observed(url: string, reset = false): Promise<Observed> {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(`${url}/hardening/observed${reset ? '?reset=1' : ''}`, { signal: AbortSignal.timeout(10_000) });
      return (await response.json()) as Observed;
    } catch (error) {
      if (attempt >= 3) throw error;
      await sleep(500);
    }
  }
}

/**
 * Asks the harness flow to collect garbage (Node-RED runs with --expose-gc); answers the bytes of JavaScript
 * heap and buffers still in use after it, or undefined when it could not collect.
 */
export async function collectGarbage(url: string): Promise<number | undefined> {
  const response = await fetch(`${url}/hardening/collect-garbage`, { method: 'POST', signal: AbortSignal.timeout(30_000) });
  const { heapUsed } = (await response.json()) as { heapUsed?: unknown };
  return typeof heapUsed === 'number' ? heapUsed : undefined;
}
