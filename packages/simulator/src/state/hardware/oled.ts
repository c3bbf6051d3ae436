import { OLED_DEFAULT_DISPLAY_SECONDS, OLED_MAX_MESSAGE_LENGTH, type OledNotificationResult } from '@stagelink/core';
import type { Clock } from '../clock.js';
import { invalidArgument } from '../refusal.js';

/** The longest display time the simulator accepts: an hour. */
export const OLED_MAX_DISPLAY_SECONDS = 3600;

export interface OledRequest {
  title: string;
  message: string;
  priority: number;
}

export interface ShownNotification extends OledNotificationResult {
  shownAt: number;
  displaySeconds: number;
  truncated: boolean;
}

/** Cuts a message to the device's 200 characters, counted as code points so no emoji is split in half. */
export function truncateOledMessage(message: string): string {
  const characters = Array.from(message);
  return characters.length > OLED_MAX_MESSAGE_LENGTH ? characters.slice(0, OLED_MAX_MESSAGE_LENGTH).join('') : message;
}

/** The front OLED screen: notifications show for the default display time (10 s until changed). */
export class Oled {
  #displaySeconds: number = OLED_DEFAULT_DISPLAY_SECONDS;
  readonly #shown: ShownNotification[] = [];

  constructor(private readonly clock: Clock) {}

  get displaySeconds(): number {
    return this.#displaySeconds;
  }

  notify(request: OledRequest): OledNotificationResult {
    const message = truncateOledMessage(request.message);
    this.#shown.push({
      priority: request.priority,
      title: request.title,
      message,
      shownAt: this.clock.now(),
      displaySeconds: this.#displaySeconds,
      truncated: message !== request.message,
    });
    return { priority: request.priority, title: request.title, message };
  }

  /** Answers with a notification confirming the new time, as the endpoint answers a notification shape. */
  setDisplayTime(seconds: number): OledNotificationResult {
    if (!(seconds > 0 && seconds <= OLED_MAX_DISPLAY_SECONDS)) {
      throw invalidArgument(`Display time ${seconds} s is outside 0 (excluded) to ${OLED_MAX_DISPLAY_SECONDS} s.`);
    }
    this.#displaySeconds = seconds;
    return { priority: 0, title: 'Display time', message: `Notifications now show for ${seconds} seconds.` };
  }

  /** The latest notification while its display time runs, else undefined. */
  onScreen(): ShownNotification | undefined {
    const latest = this.#shown.at(-1);
    if (!latest || this.clock.now() >= latest.shownAt + latest.displaySeconds * 1000) return undefined;
    return { ...latest };
  }

  history(): ShownNotification[] {
    return this.#shown.map((shown) => ({ ...shown }));
  }
}
