import { LINKABLE_EXCHANGES } from "./exchanges";
// The product's words, in one place: tiers, grade dimensions, asset classes and account kinds.
// The engine, the card, the badge, the pages and the API all read them from here, so a bound, a
// colour or a label changes once. Plain data, importing only the exchanges' list (plain data too): safe
// for the engine and the browser.

/** Tiers from the lowest. */
export const TIERS = ["Bronze", "Silver", "Gold", "Master", "Legend"] as const;
export type Tier = (typeof TIERS)[number];

/** A score s has the highest tier whose lower bound ≤ s (docs/GRADING.md §7). */
export const TIER_MIN: Readonly<Record<Tier, number>> = { Bronze: 0, Silver: 40, Gold: 60, Master: 75, Legend: 90 };
export const TIER_COLORS: Readonly<Record<Tier, string>> = {
  Bronze: "#cd7f32",
  Silver: "#c0c7d1",
  Gold: "#f5c542",
  Master: "#8b5cf6",
  Legend: "#ef4444",
};

/** The tier of an overall score in [0, 100]. */
export function tierOf(score: number): Tier {
  for (let i = TIERS.length - 1; i > 0; i--) if (score >= TIER_MIN[TIERS[i]!]) return TIERS[i]!;
  return TIERS[0];
}

/** The score range of a tier: [min, max), Legend's max being 100. */
export function tierBounds(tier: Tier): { min: number; max: number } {
  const next = TIERS[TIERS.indexOf(tier) + 1];
  return { min: TIER_MIN[tier], max: next ? TIER_MIN[next] : 100 };
}

export function isTier(value: unknown): value is Tier {
  return typeof value === "string" && (TIERS as readonly string[]).includes(value);
}

/** A tier's colour; Silver's for an unknown name (a grade from a future engine, say). */
export function tierColor(tier: string | null | undefined): string {
  return isTier(tier) ? TIER_COLORS[tier] : TIER_COLORS.Silver;
}

/** The grade's dimensions, in the order every report, card and API lists them. */
export const DIMENSIONS = ["profitability", "riskControl", "consistency", "discipline", "experience"] as const;
export type Dimension = (typeof DIMENSIONS)[number];
export const DIMENSION_LABELS: Readonly<Record<Dimension, string>> = {
  profitability: "Profitability",
  riskControl: "Risk control",
  consistency: "Consistency",
  discipline: "Discipline",
  experience: "Experience",
};

/** Instrument classes of the ledger (docs/GRADING.md §1). */
export const ASSET_CLASSES = ["stock", "etf", "crypto", "option", "future", "forex", "cfd"] as const;
export type AssetClass = (typeof ASSET_CLASSES)[number];
export const ASSET_CLASS_LABELS: Readonly<Record<AssetClass, string>> = {
  stock: "Stocks",
  etf: "ETFs",
  crypto: "Crypto",
  option: "Options",
  future: "Futures",
  forex: "Forex",
  cfd: "CFDs",
};

/**
 * How an account is linked: a brokerage through Plaid, a wallet proved by a signature, an
 * exchange through a read-only API key (one kind per exchange, app/lib/exchanges.ts),
 * Interactive Brokers through a Flex Web Service token (ibkr), or a statement file the trader
 * uploads (self-reported, DECISIONS 198).
 */
export const ACCOUNT_KINDS = ["plaid", "evm", "solana", ...LINKABLE_EXCHANGES, "ibkr", "statement"] as const;
/** The kinds an outside service serves (so each has a simulator): all but an uploaded statement. */
export const SERVED_ACCOUNT_KINDS = ["plaid", "evm", "solana", ...LINKABLE_EXCHANGES, "ibkr"] as const;
export type LinkedAccountKind = (typeof ACCOUNT_KINDS)[number];

/**
 * Which accounts an evaluation grades: one kind, every exchange (POST /api/exchange/evaluation),
 * or all of them.
 */
export type GradeScope = LinkedAccountKind | "exchange" | "all";
/** The kinds a scope grades; null: every kind. */
export function scopeKinds(scope: GradeScope): readonly LinkedAccountKind[] | null {
  if (scope === "all") return null;
  return scope === "exchange" ? LINKABLE_EXCHANGES : [scope];
}
