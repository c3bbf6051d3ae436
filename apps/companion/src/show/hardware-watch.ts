/**
 * The hardware health of each machine with a management controller in the settings: core's watch of its fans,
 * temperatures, power flags and output cards, read from that controller (never from the director) once per period
 * (15 s by default, "Hardware every" in the settings), one poll per machine however many buttons show it.
 */
import { hardwareFaultWord, hardwareSummaryOf, type HardwareSnapshot, type HardwareWatch, type MediaServer } from '@stagelink/core';

export class HardwareHealthWatch {
  #watch: HardwareWatch | undefined;
  #snapshot: HardwareSnapshot | undefined;

  constructor(
    readonly hostname: string,
    /** The variable id of the machine's SMC line, as its power variables use it. */
    readonly id: string,
    private readonly server: MediaServer,
    private readonly everyMs: number,
    private readonly onChange: () => void,
  ) {}

  start(): void {
    this.#watch ??= this.server.hardwareOf(this.hostname).watch((snapshot) => {
      this.#snapshot = snapshot;
      this.onChange();
    }, { everyMs: this.everyMs });
  }

  /** The latest snapshot; undefined before the first poll has ended. */
  get snapshot(): HardwareSnapshot | undefined {
    return this.#snapshot;
  }

  /** `ok`, `warning` or `error` while the SMC answers; `stale` or `offline` when it does not; '' before the first poll. */
  get severityWord(): string {
    const snapshot = this.#snapshot;
    if (!snapshot) return '';
    return snapshot.status === 'online' ? snapshot.severity : snapshot.status;
  }

  /** A short word for a button: FAN, HOT, POWER, OUTPUT, OFFLINE, STALE or OK; '' before the first poll. */
  get faultWord(): string {
    return this.#snapshot ? hardwareFaultWord(this.#snapshot) : '';
  }

  /** The hottest temperature and the slowest fan, only from readings taken at the last poll. */
  get summary(): ReturnType<typeof hardwareSummaryOf> {
    return this.#snapshot?.status === 'online' ? hardwareSummaryOf(this.#snapshot) : {};
  }

  close(): void {
    this.#watch?.close();
    this.#watch = undefined;
  }
}
