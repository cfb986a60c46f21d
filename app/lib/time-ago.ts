import { formatDay } from "./format-number";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"} ago`;

/**
 * PRODUCT §4: under 1 minute "Just now"; under 60 minutes minutes; under 24 hours hours; under 7 days
 * days (or, in day mode, the date as MMM D, YYYY from one day on); under 4 weeks weeks; under 12
 * months months; otherwise years.
 */
export function timeAgo(
  then: Date | string | number,
  now: Date | number = Date.now(),
  opts: { dayMode?: boolean } = {},
): string {
  const t = new Date(then);
  const diff = Math.max(0, new Date(now).getTime() - t.getTime());
  if (diff < MINUTE) return "Just now";
  if (diff < HOUR) return plural(Math.floor(diff / MINUTE), "minute");
  if (diff < DAY) return plural(Math.floor(diff / HOUR), "hour");
  if (opts.dayMode) return formatDay(t);
  if (diff < WEEK) return plural(Math.floor(diff / DAY), "day");
  if (diff < 4 * WEEK) return plural(Math.floor(diff / WEEK), "week");
  const months = monthsBetween(t, new Date(now));
  if (months < 12) return plural(Math.max(1, months), "month");
  return plural(Math.floor(months / 12), "year");
}

function monthsBetween(a: Date, b: Date): number {
  let m = (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + (b.getUTCMonth() - a.getUTCMonth());
  if (b.getUTCDate() < a.getUTCDate()) m -= 1;
  return m;
}
