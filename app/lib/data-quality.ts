import { formatNumber } from "./format-number";

/** What a grade could not use, stored with it (evaluations.data_quality). */
export type DataQuality = {
  skipped: { reason: string; count: number }[];
  /** Symbols whose computed position differs from the provider's holdings (absent in grades before it). */
  disagreements?: { symbol: string; computed: number; reported: number }[];
  /**
   * Symbols valued only at their own trades and the provider's reported prices: the price source
   * has no daily close for them, or none that agrees with their fills (absent in grades before it).
   */
  unpriced?: string[];
};

/** A stored data_quality: PGlite hands json columns back as text, PostgreSQL parsed. */
export function readDataQuality(raw: unknown): DataQuality | null {
  if (!raw) return null;
  return (typeof raw === "string" ? JSON.parse(raw) : raw) as DataQuality;
}

/** The warning a grade shows for each symbol whose position disagrees with the provider's holdings. */
export const DISAGREEMENT_TEXT = "positions disagree with the provider's holdings";

/** The quantities are left out where the trader hides amounts from others. */
type Disagreement = { symbol: string; computed?: number; reported?: number };

const units = (x: number) => formatNumber(x, 6);

export function disagreementLine(d: Disagreement): string {
  const detail =
    d.computed !== undefined && d.reported !== undefined
      ? ` (${units(d.computed)} from the imported history, ${units(d.reported)} reported held)`
      : "";
  return `${d.symbol}: ${DISAGREEMENT_TEXT}${detail}`;
}

/** For the public verify record: the symbols only, no quantities. */
export function disagreementSummary(list: readonly Disagreement[] | undefined): string | null {
  return list?.length
    ? `${list.length === 1 ? "1 symbol's" : `${list.length} symbols'`} ${DISAGREEMENT_TEXT}: ${list.map((d) => d.symbol).join(", ")}`
    : null;
}

/** Symbols named in a line at most; the rest are counted. */
const UNPRICED_NAMED = 8;

/** The line a grade shows for the symbols without daily market prices, or null when there are none. */
export function unpricedLine(list: readonly string[] | undefined): string | null {
  if (!list?.length) return null;
  const named = list.slice(0, UNPRICED_NAMED).join(", ");
  const more = list.length > UNPRICED_NAMED ? ` and ${list.length - UNPRICED_NAMED} more` : "";
  return list.length === 1
    ? `1 symbol valued only at its trades and the provider's prices (no daily market price agrees with its fills): ${named}`
    : `${list.length} symbols valued only at their trades and the provider's prices (no daily market price agrees with their fills): ${named}${more}`;
}
