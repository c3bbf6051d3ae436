/** Deeper than any drive answer; a body nested further is cut here rather than overflow the stack. */
const MAX_DEPTH = 64;

/**
 * A copy of `value` in which every occurrence of `secret` inside any string is replaced. Used on server answers
 * before they go into an error: a server that echoes the token back must not put it into a thrown object.
 * Whatever lies deeper than MAX_DEPTH is dropped (never kept unredacted).
 */
export function redactSecret(value: unknown, secret: string, depth = 0): unknown {
  if (typeof value === 'string') return value.split(secret).join('[redacted]');
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return '[nested too deeply to show]';
  if (Array.isArray(value)) return value.map((item) => redactSecret(item, secret, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [redactSecret(key, secret) as string, redactSecret(item, secret, depth + 1)]),
  );
}
