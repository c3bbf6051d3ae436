/** A value written through `set`, as the server stores it, or why its JSON type does not fit. */
export type Written = { fits: true; value: unknown } | { fits: false; reason: string };

/**
 * Checks a written value against the property's current one and stores it as shipping servers do: numbers as
 * 32-bit floats (0.95 reads back 0.949999988079071), objects merged key by key (`{"x": 0.01}` changes only
 * `x`; keys the property does not have are ignored). A value of another JSON type does not fit: the server
 * closes the socket.
 */
export function written(current: unknown, value: unknown, path: string): Written {
  if (typeof current === 'number') {
    return typeof value === 'number' && Number.isFinite(value) ? { fits: true, value: Math.fround(value) } : misfit(path, 'a number', value);
  }
  if (typeof current === 'boolean' || typeof current === 'string') {
    return typeof value === typeof current ? { fits: true, value } : misfit(path, `a ${typeof current}`, value);
  }
  if (isRecord(current)) {
    if (!isRecord(value)) return misfit(path, 'an object', value);
    const merged: Record<string, unknown> = { ...current };
    for (const [key, part] of Object.entries(value)) {
      if (!(key in current)) continue;
      const result = written(current[key], part, `${path}.${key}`);
      if (!result.fits) return result;
      merged[key] = result.value;
    }
    return { fits: true, value: merged };
  }
  return { fits: false, reason: `${path} cannot be written` };
}

function misfit(path: string, expected: string, value: unknown): Written {
  return { fits: false, reason: `${path} takes ${expected}, not ${JSON.stringify(value) ?? 'nothing'}` };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
