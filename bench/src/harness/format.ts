/** Numbers as the table shows them. */

export function micros(ms: number): string {
  return `${Math.round(ms * 1000)} µs`;
}

export function millis(ms: number): string {
  return ms >= 100 ? `${Math.round(ms)} ms` : `${ms.toFixed(1)} ms`;
}

export function perSecond(count: number, unit: string): string {
  return `${Math.round(count).toLocaleString('en-US')} ${unit}/s`;
}

export function times(ratio: number): string {
  return `${ratio.toFixed(2)}x`;
}
