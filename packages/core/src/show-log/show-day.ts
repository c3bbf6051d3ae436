/** A show that runs past midnight is one show day: the day turns at this hour, local time, unless told otherwise. */
export const DAY_STARTS_AT_HOUR = 6;

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/**
 * The time as local ISO 8601 with milliseconds and the UTC offset (`2026-11-27T21:03:00.120+01:00`): what the
 * venue's clocks said, and still one instant for any reader in another zone.
 */
export function localIso(date: Date): string {
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const zone = `${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}${zone}`
  );
}

/** The show day an instant belongs to, `YYYY-MM-DD`: the local date, less one before `dayStartsAtHour`. */
export function showDayOf(date: Date, dayStartsAtHour = DAY_STARTS_AT_HOUR): string {
  const day = new Date(date.getTime());
  if (day.getHours() < dayStartsAtHour) day.setDate(day.getDate() - 1);
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}
