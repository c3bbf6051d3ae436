/**
 * Parses a DNS-SD TXT record from its raw strings (`key=value`, RFC 6763 section 6): keys are
 * case-insensitive, a key without `=` is a boolean flag, and the first occurrence of a key wins.
 */
export function parseTxtRecord(raw: unknown): Record<string, string | true> {
  const entries = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  const record: Record<string, string | true> = {};
  for (const entry of entries) {
    const text = Buffer.isBuffer(entry) ? entry.toString('utf8') : typeof entry === 'string' ? entry : '';
    if (text === '' || text.startsWith('=')) continue;
    const separator = text.indexOf('=');
    const key = (separator === -1 ? text : text.slice(0, separator)).toLowerCase();
    if (key in record) continue;
    record[key] = separator === -1 ? true : text.slice(separator + 1);
  }
  return record;
}
