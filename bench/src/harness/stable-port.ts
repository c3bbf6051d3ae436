import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A free port on 127.0.0.1 below the kernel's ephemeral range. A server that stops and starts again on the same
 * port must not lose it meanwhile: a port the system picked (port 0) comes from the ephemeral range, where any
 * other process's next socket may take it while the server is down.
 */
export async function stablePort(): Promise<number> {
  const firstEphemeral = ephemeralRangeStart();
  for (let attempt = 0; attempt < 50; attempt++) {
    const candidate = 10_000 + Math.floor(Math.random() * (firstEphemeral - 10_000));
    if (await isFree(candidate)) return candidate;
  }
  throw new Error(`No free port found between 10000 and ${firstEphemeral}.`);
}

/** From /proc (Linux); 32768 is the kernel's default. */
function ephemeralRangeStart(): number {
  try {
    const [start] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    return Number(start) > 10_000 ? Number(start) : 32_768;
  } catch {
    return 32_768;
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
