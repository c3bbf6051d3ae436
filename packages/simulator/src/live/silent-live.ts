/** One `silentLive` rule as the control summary shows it. */
export interface SilentLiveRule {
  /** Matched, in any case, anywhere in a subscription's object expression. */
  pattern: string;
  /** When set, matched in any case anywhere in its property expression too: one property of an object falls silent. */
  property?: string;
  /** Values of each pair fed after the rule was set, before the silence. */
  afterValues: number;
}

interface Rule extends SilentLiveRule {
  /** Values fed per (object, property) pair since the rule was set, over every socket. */
  fed: Map<string, number>;
}

/**
 * Subscriptions that are acknowledged but not fed, as some shipping builds do: a pair whose object matches a
 * rule gets `afterValues` values, then none, whether it is subscribed again or on another socket (the fault is
 * the server's, not the subscription's). Removing the rule feeds them again.
 */
export class SilentLive {
  readonly #rules = new Map<string, Rule>();

  /** Sets the rule for `pattern` (and `property`) afresh (its count starts again), or removes it. */
  set(pattern: string, on: boolean, afterValues = 0, property?: string): void {
    const key = ruleKey(pattern, property);
    if (on) this.#rules.set(key, { pattern, ...(property !== undefined && { property }), afterValues, fed: new Map() });
    else this.#rules.delete(key);
  }

  /** Whether a value of this pair may go out now; a value that may is counted against every rule it matches. */
  feeds(object: string, property: string): boolean {
    const matching = this.#matching(object, property);
    const pair = `${object}\u0000${property}`;
    if (matching.some((rule) => (rule.fed.get(pair) ?? 0) >= rule.afterValues)) return false;
    for (const rule of matching) rule.fed.set(pair, (rule.fed.get(pair) ?? 0) + 1);
    return true;
  }

  rules(): SilentLiveRule[] {
    return [...this.#rules.values()].map(({ pattern, property, afterValues }) => ({ pattern, ...(property !== undefined && { property }), afterValues }));
  }

  clear(): void {
    this.#rules.clear();
  }

  #matching(object: string, property: string): Rule[] {
    const [lowerObject, lowerProperty] = [object.toLowerCase(), property.toLowerCase()];
    return [...this.#rules.values()].filter(
      (rule) => lowerObject.includes(rule.pattern.toLowerCase()) && (rule.property === undefined || lowerProperty.includes(rule.property.toLowerCase())),
    );
  }
}

const ruleKey = (pattern: string, property: string | undefined): string => `${pattern.toLowerCase()}\u0000${property?.toLowerCase() ?? ''}`;
