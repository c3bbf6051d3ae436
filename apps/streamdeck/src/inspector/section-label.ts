/**
 * How the transport inspector lists a section: by its 0-based index, which is what the key keeps and what
 * directors take, and the time it starts at, which is how an operator recognises it (`1 · 1:30`).
 */

export function sectionLabel(section: { index: number; time: number }): string {
  return `${section.index} · ${clockTime(section.time)}`;
}

/** Seconds as `m:ss`, `h:mm:ss` from an hour on, with tenths when a section starts between seconds. */
export function clockTime(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  const tenths = Math.round(seconds * 10);
  const whole = Math.floor(tenths / 10);
  const fraction = tenths % 10 === 0 ? '' : `.${tenths % 10}`;
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = String(whole % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${secs}${fraction}` : `${minutes}:${secs}${fraction}`;
}
