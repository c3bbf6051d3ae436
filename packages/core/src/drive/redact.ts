/**
 * A copy of `value` in which every occurrence of `secret` inside any string is replaced. Used on server answers
 * before they go into an error: a server that echoes the token back must not put it into a thrown object.
 */
export function redactSecret(value: unknown, secret: string): unknown {
  if (typeof value === 'string') return value.split(secret).join('[redacted]');
  if (Array.isArray(value)) return value.map((item) => redactSecret(item, secret));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [redactSecret(key, secret) as string, redactSecret(item, secret)]),
    );
  }
  return value;
}
