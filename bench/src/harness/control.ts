import { request } from 'undici';

/** Sends a `/__sim/control` action to a simulator port (media server or drive) and answers its reply. */
export async function simControl(baseUrl: string, action: Record<string, unknown>): Promise<unknown> {
  const response = await request(`${baseUrl}/__sim/control`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(action),
  });
  const body: unknown = await response.body.json();
  if (response.statusCode !== 200) throw new Error(`Simulator control ${JSON.stringify(action)} answered ${response.statusCode}: ${JSON.stringify(body)}`);
  return body;
}
