// The disclosure a grade carries when accounts were unlinked since the trader's previous grade.
// `twr` is the last known return of the account: the TWR of the latest grade it was part of.
import { formatNumber } from "./format-number";

export type Unlinked = { kind: string; twr: number | null };

function percent(fraction: number): string {
  const pct = fraction * 100;
  const sign = pct < 0 ? "\u2212" : pct > 0 ? "+" : "";
  return `${sign}${formatNumber(Math.abs(pct), 1)} %`;
}

/** "1 account with a −12.0 % record unlinked since the last grade", or null when none was. */
export function unlinkedDisclosure(list: readonly Unlinked[] | null | undefined): string | null {
  if (!list || list.length === 0) return null;
  const known = list.filter((u) => u.twr !== null && Number.isFinite(u.twr));
  const n = list.length;
  const accounts = n === 1 ? "1 account" : `${n} accounts`;
  if (known.length === 0) return `${accounts} unlinked since the last grade`;
  if (n === 1) return `1 account with a ${percent(known[0]!.twr!)} record unlinked since the last grade`;
  return `${accounts} unlinked since the last grade (records ${list.map((u) => (u.twr === null ? "unknown" : percent(u.twr))).join(", ")})`;
}
