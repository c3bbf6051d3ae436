/** `POST /__sim/control` on a simulator machine: the fault injection the brief asks for, over HTTP. */
export async function simControl(machineUrl: string, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${machineUrl}/__sim/control`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`control ${JSON.stringify(body)} answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
}
