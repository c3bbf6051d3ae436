/** Fault cases counted as the hardening suite counts them (hardening/README.md), one row per area. */
export interface TallyRow {
  area: string;
  /** Inputs tried: commands, faults, restarts. */
  inputs: number;
  /** Answered with a correct result. */
  ok: number;
  /** Refused with a clear error result (a stable code and words). */
  clearErrors: number;
  /** The bridge process exited or stopped answering. */
  crashes: number;
  /** An input with neither a result nor the state it should have led to. */
  silentLosses: number;
  /** Requests that reached the director when none should have. */
  reachedDirector: number;
}

export class Tally {
  readonly rows: TallyRow[] = [];

  row(area: string): TallyRow {
    const existing = this.rows.find((row) => row.area === area);
    if (existing) return existing;
    const row: TallyRow = { area, inputs: 0, ok: 0, clearErrors: 0, crashes: 0, silentLosses: 0, reachedDirector: 0 };
    this.rows.push(row);
    return row;
  }

  /** One input tried in `area`, counted ok once `check` has passed. */
  async countCase(area: string, check: () => Promise<void>): Promise<void> {
    const row = this.row(area);
    row.inputs++;
    await check();
    row.ok++;
  }

  table(): string {
    const header = '| area | inputs tried | ok | clear errors | crashes | silent losses | reached the director |';
    const lines = this.rows.map((row) => `| ${row.area} | ${row.inputs} | ${row.ok} | ${row.clearErrors} | ${row.crashes} | ${row.silentLosses} | ${row.reachedDirector} |`);
    return [header, '|---|---:|---:|---:|---:|---:|---:|', ...lines].join('\n');
  }
}
