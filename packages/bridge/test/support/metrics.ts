import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

/** One sample of Prometheus' text format: `name{label="value",...} number`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a `/metrics` answer (comments and blank lines skipped). */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match?.[1] || match[3] === undefined) throw new Error(`Not a sample line of the text format: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    for (const label of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[label[1] as string] = (label[2] as string).replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample with this name and these labels (others may differ); undefined when none. */
export function sampleValue(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))?.value;
}

export async function scrape(url: string): Promise<Sample[]> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return parseExposition(await response.text());
}

/** Scrapes until `check` holds for the samples; rejects after `timeoutMs` with the last scrape. */
export async function scrapeUntil(url: string, check: (samples: Sample[]) => boolean, timeoutMs: number, what: string): Promise<Sample[]> {
  const deadline = Date.now() + timeoutMs;
  let last: Sample[] = [];
  for (;;) {
    last = await scrape(url);
    if (check(last)) return last;
    if (Date.now() > deadline) {
      const shown = last.filter((sample) => sample.name.startsWith('stagelink_')).map((sample) => `${sample.name}${JSON.stringify(sample.labels)} ${sample.value}`);
      throw new Error(`/metrics did not show ${what} within ${timeoutMs} ms; last scrape:\n  ${shown.join('\n  ')}`);
    }
    await delay(100);
  }
}

/** A free TCP port on loopback (asked of the kernel, then let go for the process that listens on it). */
export async function freeTcpPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

/**
 * The metric names a PromQL expression reads: every identifier that is not a function, keyword, label name (in
 * matchers and `by (...)` lists), duration, number or Grafana variable.
 */
export function metricNamesOf(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\boffset\s+-?[\w.]+/g, ' ')
    .replace(/\b\d[\w.]*/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\{?\w+\}?/g, ' ');
  const names = new Set<string>();
  for (const match of stripped.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*(?=\s*(\(?))/g)) {
    const word = match[0];
    if (match[1] === '(') continue;
    if (['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset', 'and', 'or', 'unless', 'inf', 'nan'].includes(word.toLowerCase())) continue;
    names.add(word);
  }
  return [...names];
}
