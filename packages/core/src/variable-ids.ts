/**
 * Ids for things a front end names in its host's variables (Companion's `machine_<id>_fps`, ...): the name in lower
 * case, every character that is not a letter or digit (a to z, 0 to 9) as `_`. Variable ids of hosts take no
 * spaces, dots or accents, and an operator reads `actor_1` for "Actor 1" at once.
 */
export function variableIdOf(name: string): string {
  const id = name.toLowerCase().replace(/[^a-z0-9]/g, '_');
  return id === '' ? '_' : id;
}

/**
 * The ids of one session's names, each given once and kept while the session lasts: two names that give the same
 * id ("Actor 1" and "actor-1") get a numeric suffix in the order they were first seen (`actor_1`, `actor_1_2`), and
 * a name keeps its id when others come and go, so a button showing a variable keeps showing the same machine.
 */
export class VariableIds {
  readonly #byName = new Map<string, string>();
  readonly #taken = new Set<string>();

  /** The id of `name`: the one it was given before, or a new one no other name has. */
  idOf(name: string): string {
    const known = this.#byName.get(name);
    if (known !== undefined) return known;
    const base = variableIdOf(name);
    let id = base;
    for (let suffix = 2; this.#taken.has(id); suffix += 1) id = `${base}_${suffix}`;
    this.#byName.set(name, id);
    this.#taken.add(id);
    return id;
  }
}
