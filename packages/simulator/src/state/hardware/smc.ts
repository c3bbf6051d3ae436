/** The SMC (system management controller) status: string keys to string values, as the spec shows it. */
export class Smc {
  readonly #status: Record<string, string>;

  constructor(status: Readonly<Record<string, string>>) {
    this.#status = { ...status };
  }

  status(): Record<string, string> {
    return { ...this.#status };
  }

  /** Erases the database, user accounts included; there is no undo. */
  clearAll(): void {
    this.#status['Database'] = 'cleared';
    this.#status['User accounts'] = '0';
  }

  /** Lets the next update go below the permitted version. */
  enableDowngrade(): void {
    this.#status['Downgrade'] = 'permitted';
  }
}
