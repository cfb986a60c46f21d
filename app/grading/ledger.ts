// Ledger schema (zod) and validation. parseLedger is the only gate: grade() trusts its output.
import { z } from "zod";
import { isIsoDate, isTimeZone, parseIsoMs } from "./time";
import { hasDuplicateId, refusedItems, validateInPlace } from "./validate";
import { ASSET_CLASSES, type AssetClass } from "../lib/vocabulary";

export { ASSET_CLASSES, type AssetClass };

const isoTime = z
  .string({ required_error: "is required", invalid_type_error: "must be an ISO 8601 time string" })
  .refine((s) => !Number.isNaN(parseIsoMs(s)), {
    message: "must be an ISO 8601 date (YYYY-MM-DD) or date-time with a zone (Z or ±HH:MM)",
  });

/** A calendar day, YYYY-MM-DD (an expiry): no time, no zone. */
const isoDate = z
  .string({ invalid_type_error: "must be an ISO 8601 date string (YYYY-MM-DD)" })
  .refine((s) => isIsoDate(s), { message: "must be an ISO 8601 date (YYYY-MM-DD)" });

/** Classes whose instruments never expire: an expiry on them is a data error (validate.ts agrees). */
export const NEVER_EXPIRE: readonly AssetClass[] = ["stock", "etf", "crypto", "forex"];

const text = (what: string) =>
  z
    .string({ required_error: "is required", invalid_type_error: `must be a ${what} string` })
    .min(1, "must not be empty");

const num = () =>
  z.number({ required_error: "is required", invalid_type_error: "must be a number" }).finite("must be finite");

/** ISO 4217 code (ledger v3.1, docs/GRADING.md §1). Crypto quote assets (USDT, BTC …) are symbols, not currencies. */
export const CURRENCY_RE = /^[A-Z]{3}$/;
const currency = () =>
  z
    .string({ required_error: "is required", invalid_type_error: "must be a currency code string" })
    .regex(CURRENCY_RE, "must be an ISO 4217 currency code (three capital letters, e.g. EUR)");

const TradeSchema = z.object({
  id: z
    .union([text("non-empty"), num()], {
      errorMap: () => ({ message: "must be a non-empty string or a number" }),
    })
    .transform((v) => String(v)),
  account: text("non-empty"),
  time: isoTime,
  symbol: text("non-empty"),
  assetClass: z.enum(ASSET_CLASSES, {
    errorMap: () => ({ message: `must be one of ${ASSET_CLASSES.join(", ")}` }),
  }),
  side: z.enum(["buy", "sell"], { errorMap: () => ({ message: "must be buy or sell" }) }),
  quantity: num().gt(0, "must be > 0"),
  price: num().gte(0, "must be ≥ 0"),
  fee: num().gte(0, "must be ≥ 0").default(0),
  /** Order within one instant when the source knows it (the broker's sequence). */
  seq: num().optional(),
  /** Currency of price and fee (default: the ledger's baseCurrency). */
  currency: currency().optional(),
  /**
   * Contract size (v3.2, default 1): cash and P&L are quantity × price × multiplier (ES = 50; a forex
   * lot = 100000 when quantity counts lots). One multiplier per symbol.
   */
  multiplier: num().gt(0, "must be > 0").optional(),
  /** Last day of a contract that expires (v3.2: futures, options, CFDs), YYYY-MM-DD. */
  expiry: isoDate.optional(),
  /**
   * How far the source vouches for this fill's price as a market price, 0–1 (v3.4). Absent: a market
   * fill. Below TRUSTED_CONFIDENCE (a thin pool, a token only the trader trades) the fill is real for
   * cash and cost but, like an untrusted mark, never raises the position's value.
   */
  confidence: num().gte(0, "must be ≥ 0").lte(1, "must be ≤ 1").optional(),
});

// An expiry on a stock, an ETF, a coin or a spot forex pair is a data error (a column mapped wrong).
const TradeChecked = TradeSchema.superRefine((t, ctx) => {
  if (t.expiry !== undefined && NEVER_EXPIRE.includes(t.assetClass))
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ["expiry"],
      message: `must be absent on a ${t.assetClass} trade: only futures, options and CFDs expire`,
    });
});

const CashFlowSchema = z.object({
  account: text("non-empty"),
  time: isoTime,
  // A flow of 0 moves nothing: it is a data error (a deposit is > 0, a withdrawal < 0).
  amount: num().refine((x) => x !== 0, "must not be 0 (a deposit is > 0, a withdrawal < 0)"),
  currency: currency().optional(),
});

/**
 * The confidence from which a mark may raise a position's value (DefiLlama's: from 0.8 a price comes
 * from at least one adequately liquid pool or a better source). Below it, or without one, a mark
 * only lowers: the position is held at the lower of the mark and its last trusted price.
 */
export const TRUSTED_CONFIDENCE = 0.8;

const PriceSchema = z.object({
  symbol: text("non-empty"),
  time: isoTime,
  price: num().gte(0, "must be ≥ 0"),
  /** Who quoted the price ("broker", "yahoo", "defillama" …): shown where a position is held at cost. */
  source: text("non-empty").optional(),
  /** How far the source trusts the price, 0–1. Below TRUSTED_CONFIDENCE, or absent, it may lower a position's value but never raise it (docs/GRADING.md §1, "Marks"). */
  confidence: num().gte(0, "must be ≥ 0").lte(1, "must be ≤ 1").optional(),
});

const arrayOf = <T extends z.ZodTypeAny>(item: T) =>
  z.array(item, { invalid_type_error: "must be an array", required_error: "is required" });

const eventId = z
  .union([text("non-empty"), num()], { errorMap: () => ({ message: "must be a non-empty string or a number" }) })
  .transform((v) => String(v));
const positive = () => num().gt(0, "must be > 0");
const eventBase = { id: eventId, time: isoTime };

// Ledger v2 events (docs/GRADING.md §1): what happens to a position other than a trade.
/** A fee is either cash (`amount`) or in kind (`symbol`, `quantity`, `price`), never both. */
export function isFeeShape(e: { amount?: unknown; symbol?: unknown; quantity?: unknown; price?: unknown }): boolean {
  const inKind = e.symbol !== undefined || e.quantity !== undefined || e.price !== undefined;
  return inKind
    ? e.amount === undefined && e.symbol !== undefined && e.quantity !== undefined && e.price !== undefined
    : e.amount !== undefined;
}

/** Income is cash (`amount`) or in kind (`symbol`, `quantity`, `price`: an airdrop, a staking reward), never both. */
export function isIncomeShape(e: {
  amount?: unknown;
  quantity?: unknown;
  price?: unknown;
  confidence?: unknown;
  symbol?: unknown;
}): boolean {
  const inKind = e.quantity !== undefined || e.price !== undefined || e.confidence !== undefined;
  return inKind
    ? e.amount === undefined && e.symbol !== undefined && e.quantity !== undefined && e.price !== undefined
    : e.amount !== undefined;
}

/**
 * Whether an event moves units of a symbol at a price, as a row beside the trades: a receive, a
 * send, a fee paid in kind (v3.3), income received in kind (v3.4).
 */
export function isInKindEvent(e: LedgerEvent): boolean {
  return (
    e.kind === "receive" ||
    e.kind === "send" ||
    (e.kind === "fee" && e.symbol !== undefined) ||
    (e.kind === "income" && e.quantity !== undefined)
  );
}

export const EVENT_KINDS = [
  "income",
  "fee",
  "split",
  "rename",
  "spinoff",
  "transfer",
  "receive",
  "send",
  "fx",
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

// Income is cash (a dividend on `symbol`, interest), or (v3.4) units received in kind: an airdrop, a
// staking reward. In kind it counts as income at its trusted value, which then buys the units.
const IncomeSchema = z.object({
  ...eventBase,
  kind: z.literal("income"),
  account: text("non-empty"),
  symbol: text("non-empty").optional(),
  amount: positive().optional(),
  quantity: positive().optional(),
  /** In kind: the value of one unit then (in `currency`, default the base). */
  price: num().gte(0, "must be ≥ 0").optional(),
  /** In kind: who quoted the price, and how far it vouches for it (as a mark's; below TRUSTED_CONFIDENCE or absent, the income is valued at no more than the last trusted price, else 0). */
  source: text("non-empty").optional(),
  confidence: num().gte(0, "must be ≥ 0").lte(1, "must be ≤ 1").optional(),
  currency: currency().optional(),
});
// A fee is an amount of cash, or (v3.3) units of an asset paid in kind: gas in ETH, a BNB trading
// fee. In kind it leaves the position like a sale at `price` whose proceeds pay the fee: not a withdrawal.
const FeeSchema = z.object({
  ...eventBase,
  kind: z.literal("fee"),
  account: text("non-empty"),
  amount: positive().optional(),
  symbol: text("non-empty").optional(),
  quantity: positive().optional(),
  /** In kind: the value of one unit then (in `currency`, default the base). */
  price: num().gte(0, "must be ≥ 0").optional(),
  currency: currency().optional(),
});
// An exchange of one cash balance for another (v3.1): never a deposit or a withdrawal.
const FxSchema = z.object({
  ...eventBase,
  kind: z.literal("fx"),
  account: text("non-empty"),
  sell: currency(),
  sellAmount: positive(),
  buy: currency(),
  buyAmount: positive(),
  /** In the sell currency. */
  fee: num().gte(0, "must be ≥ 0").optional(),
});
const SplitSchema = z.object({
  ...eventBase,
  kind: z.literal("split"),
  symbol: text("non-empty"),
  ratio: positive(),
  account: text("non-empty").optional(),
});
const RenameSchema = z.object({
  ...eventBase,
  kind: z.literal("rename"),
  from: text("non-empty"),
  to: text("non-empty"),
  ratio: positive().default(1),
});
const SpinoffSchema = z.object({
  ...eventBase,
  kind: z.literal("spinoff"),
  symbol: text("non-empty"),
  newSymbol: text("non-empty"),
  ratio: positive(),
  costFraction: num().gte(0, "must be ≥ 0").lte(1, "must be ≤ 1"),
});
// A move between the trader's own accounts, keeping cost and dates. With `toSymbol` (v3.4) the
// units change form on the way: wrapping (ETH → WETH, within one account) or a bridge's token.
const TransferSchema = z.object({
  ...eventBase,
  kind: z.literal("transfer"),
  from: text("non-empty"),
  to: text("non-empty"),
  symbol: text("non-empty"),
  quantity: positive(),
  toSymbol: text("non-empty").optional(),
  /** Units of toSymbol that arrive (default: quantity). */
  toQuantity: positive().optional(),
});
const inKind = {
  ...eventBase,
  account: text("non-empty"),
  symbol: text("non-empty"),
  quantity: positive(),
  price: num().gte(0, "must be ≥ 0"),
  /** Class of a symbol the ledger never trades (default: its trades' class, else crypto — wallets). */
  assetClass: z
    .enum(ASSET_CLASSES, { errorMap: () => ({ message: `must be one of ${ASSET_CLASSES.join(", ")}` }) })
    .optional(),
  /** Currency of price (default: the ledger's baseCurrency). */
  currency: currency().optional(),
};
const ReceiveSchema = z.object({ ...inKind, kind: z.literal("receive") });
const SendSchema = z.object({ ...inKind, kind: z.literal("send") });

const EventUnion = z.discriminatedUnion(
  "kind",
  [
    IncomeSchema,
    FeeSchema,
    SplitSchema,
    RenameSchema,
    SpinoffSchema,
    TransferSchema,
    ReceiveSchema,
    SendSchema,
    FxSchema,
  ],
  {
    errorMap: (issue, ctx) =>
      issue.code === z.ZodIssueCode.invalid_union_discriminator
        ? { message: `must be one of ${EVENT_KINDS.join(", ")}` }
        : issue.code === z.ZodIssueCode.invalid_type && issue.expected === "object"
          ? { message: "must be an object" }
          : { message: ctx.defaultError },
  },
);
// A transfer between one account and itself moves nothing (unless it wraps): a data error, refused.
const EventSchema = EventUnion.superRefine((e, ctx) => {
  if (e.kind === "income" && !isIncomeShape(e))
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: [e.amount === undefined ? "amount" : "quantity"],
      message:
        "must be an amount of cash, or a symbol, quantity and price for income received in kind (an airdrop, a staking reward), not both",
    });
  if (e.kind === "fee" && !isFeeShape(e))
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: [e.amount === undefined ? "amount" : "symbol"],
      message:
        "must be an amount of cash, or a symbol, quantity and price for a fee paid in kind (gas in ETH, a fee in BNB), not both",
    });
  if (e.kind === "transfer" && e.from === e.to && (e.toSymbol === undefined || e.toSymbol === e.symbol))
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ["to"],
      message: `must be another account than from (${JSON.stringify(e.from)}): a transfer within one account moves nothing (give a toSymbol to wrap)`,
    });
  if (e.kind === "transfer" && e.toQuantity !== undefined && e.toSymbol === undefined)
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ["toQuantity"],
      message: "needs a toSymbol: only units that change form (wrapping, a bridge's token) change in number",
    });
  if (e.kind === "fx" && e.sell === e.buy)
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ["buy"],
      message: `must be another currency than sell (${JSON.stringify(e.sell)}): an exchange within one currency moves nothing`,
    });
});

const BenchmarkSchema = z.object(
  {
    symbol: text("non-empty"),
    prices: arrayOf(z.object({ time: isoTime, price: positive() })),
    /** Currency of the prices (default USD); converted into the base currency with fxRates. */
    currency: currency().optional(),
  },
  { invalid_type_error: "must be an object" },
);

// The risk-free rate (v3): the annual yield of 3-month US Treasury bills, as a fraction (0.043 is
// 4.3 %), carried forward like the benchmark; optional, so older ledgers stay valid (risk-free 0).
const RiskFreeSchema = z.object(
  {
    symbol: text("non-empty"),
    rates: arrayOf(z.object({ time: isoTime, rate: num().gt(-1, "must be > -1").lt(1, "must be < 1") })),
  },
  { invalid_type_error: "must be an object" },
);

// Daily reference rates (v3.1): how many units of the base currency one unit of `currency` is worth,
// from that time on (carried forward over weekends and holidays).
const FxRatesSchema = z.object(
  {
    source: text("non-empty"),
    rates: arrayOf(z.object({ currency: currency(), time: isoTime, rate: positive() })),
  },
  { invalid_type_error: "must be an object" },
);

export const LedgerSchema = z.object(
  {
    asOf: isoTime.optional(),
    /** Every figure of the grade is in it (default USD). */
    baseCurrency: currency().optional(),
    /** Where the trader's days start (IANA, default UTC): the curve's days, active days and months (v3.3). */
    timeZone: z
      .string({ invalid_type_error: "must be an IANA time zone such as America/New_York" })
      .refine(isTimeZone, "must be an IANA time zone such as America/New_York")
      .optional(),
    trades: arrayOf(TradeChecked),
    cashFlows: arrayOf(CashFlowSchema).default([]),
    prices: arrayOf(PriceSchema).default([]),
    events: arrayOf(EventSchema).default([]),
    benchmark: BenchmarkSchema.optional(),
    riskFree: RiskFreeSchema.optional(),
    fxRates: FxRatesSchema.optional(),
  },
  { invalid_type_error: "must be an object", required_error: "is required" },
);

/** A validated ledger (the output of parseLedger). Times are ISO strings, fee defaults to 0. */
export type Ledger = z.output<typeof LedgerSchema>;
/** What a caller may send (before defaults are applied). */
export type LedgerInput = z.input<typeof LedgerSchema>;
export type Trade = Ledger["trades"][number];
export type CashFlow = Ledger["cashFlows"][number];
export type PriceMark = Ledger["prices"][number];
export type LedgerEvent = Ledger["events"][number];
export type Benchmark = NonNullable<Ledger["benchmark"]>;
export type RiskFree = NonNullable<Ledger["riskFree"]>;
export type FxRates = NonNullable<Ledger["fxRates"]>;

export type ParseResult = { ok: true; ledger: Ledger } | { ok: false; problems: string[] };

/** `["trades", 3, "price"]` → `trades[3].price`; the root is `(root)`. */
export function formatPath(path: (string | number)[]): string {
  let out = "";
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else out += out === "" ? p : `.${p}`;
  }
  return out === "" ? "(root)" : out;
}

/**
 * Validates a ledger. Accepts the JSON text or an already-parsed value. Never throws:
 * every problem is returned as one `path: reason` string, in document order.
 * A parsed value is checked in place (validate.ts; its objects become the ledger's, with zod's
 * defaults written into them); only a ledger that pass does not prove valid goes through the zod
 * schema, which words the problems. `zod: true` skips the fast pass (the reference, for tests and
 * the bench). `now`: the caller's clock (ms), given so the engine stays pure; without asOf, an item
 * dated more than a day after it is refused (futureProblems).
 */
export function parseLedger(input: unknown, options: { zod?: boolean; now?: number } = {}): ParseResult {
  let value = input;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input);
    } catch (e) {
      return { ok: false, problems: [`(root): invalid JSON (${(e as Error).message})`] };
    }
  }
  const fast = options.zod ? null : validateInPlace(value);
  // Not proven valid: zod words the problems, given only the items the fast pass refused (their
  // indices mapped back below), or the whole value when the root is not a plain object or when zod
  // finds nothing wrong in those items (an object of a class: zod accepts it, the fast pass does not).
  let refused = fast === null && !options.zod ? refusedItems(value) : null;
  let result: z.SafeParseReturnType<LedgerInput, Ledger> =
    fast !== null ? { success: true, data: fast } : LedgerSchema.safeParse(refused?.root ?? value);
  if (refused !== null && result.success) {
    refused = null;
    result = LedgerSchema.safeParse(value);
  }
  const problems: { path: (string | number)[]; text: string }[] = [];
  if (!result.success) {
    for (const issue of result.error.issues) {
      let reason = issue.message;
      if (issue.code === z.ZodIssueCode.invalid_type && issue.received === "undefined") reason = "is required";
      const at = refused?.index[issue.path[0]];
      const path =
        at !== undefined && typeof issue.path[1] === "number"
          ? [issue.path[0], at[issue.path[1]], ...issue.path.slice(2)]
          : issue.path;
      problems.push({ path, text: `${formatPath(path)}: ${reason}` });
    }
  }
  // Duplicate ids are checked on the raw input so they are reported alongside other problems.
  // (A valid ledger's ids are first screened by a faster test that only says whether one repeats.)
  const raw = value as { trades?: unknown; events?: unknown } | null;
  if (fast === null || hasDuplicateId(fast.trades) || hasDuplicateId(fast.events)) {
    duplicateIds(raw?.trades, "trades", problems);
    duplicateIds(raw?.events, "events", problems);
  }
  if (result.success) symbolCurrencyProblems(result.data, problems);
  if (result.success && options.now !== undefined && result.data.asOf === undefined)
    futureProblems(result.data, options.now, problems);
  if (result.success && problems.length === 0) {
    const span = spanProblem(result.data);
    if (span !== null) problems.push({ path: [], text: `(root): ${span}` });
  }
  if (result.success && problems.length === 0) return { ok: true, ledger: result.data };
  problems.sort((a, b) => comparePaths(a.path, b.path));
  return { ok: false, problems: [...new Set(problems.map((p) => p.text))] };
}

function duplicateIds(
  items: unknown,
  section: "trades" | "events",
  problems: { path: (string | number)[]; text: string }[],
): void {
  if (!Array.isArray(items)) return;
  const seen = new Map<string, number>();
  for (let i = 0; i < items.length; i++) {
    const rawId = (items[i] as { id?: unknown } | null)?.id;
    if (typeof rawId !== "string" && typeof rawId !== "number") continue;
    const id = String(rawId);
    const first = seen.get(id);
    if (first === undefined) seen.set(id, i);
    else {
      const path = [section, i, "id"];
      problems.push({
        path,
        text: `${formatPath(path)}: duplicate of ${section}[${first}].id (${JSON.stringify(id)})`,
      });
    }
  }
}

/**
 * A symbol has one currency (its marks are in it): a symbol traded (or received, sent) in two is
 * refused at the row where its second currency appears. Only ledgers that name a currency pay the scan.
 */
function symbolCurrencyProblems(ledger: Ledger, problems: { path: (string | number)[]; text: string }[]): void {
  const base = ledger.baseCurrency ?? "USD";
  let named = false;
  let contracts = false;
  for (const t of ledger.trades) {
    if (t.currency !== undefined) named = true;
    if (t.multiplier !== undefined || t.expiry !== undefined) contracts = true;
  }
  if (contracts) symbolContractProblems(ledger, problems);
  for (const e of ledger.events)
    if (isInKindEvent(e) && (e as { currency?: string }).currency !== undefined) named = true;
  if (!named) return;
  const first = new Map<string, { currency: string; at: string }>();
  const see = (section: string, i: number, symbol: string, cur: string | undefined) => {
    const c = cur ?? base;
    const seen = first.get(symbol);
    if (seen === undefined) first.set(symbol, { currency: c, at: `${section}[${i}]` });
    else if (seen.currency !== c) {
      const path = [section, i, "currency"];
      problems.push({
        path,
        text: `${formatPath(path)}: ${JSON.stringify(symbol)} is in ${c} here but in ${seen.currency} at ${seen.at}; a symbol has one currency (its marks are in it), so list the other listing under its own symbol`,
      });
    }
  };
  ledger.trades.forEach((t, i) => see("trades", i, t.symbol, t.currency));
  ledger.events.forEach((e, i) => {
    if (isInKindEvent(e)) {
      const u = e as { symbol: string; currency?: string };
      see("events", i, u.symbol, u.currency);
    }
  });
}

/**
 * A symbol is one contract: one multiplier (absent = 1) and one expiry across its trades, or its
 * marks and its P&L would mean two things. Refused at the row where the second one appears.
 */
function symbolContractProblems(ledger: Ledger, problems: { path: (string | number)[]; text: string }[]): void {
  const first = new Map<string, { multiplier: number; expiry: string | undefined; at: number }>();
  ledger.trades.forEach((t, i) => {
    const m = t.multiplier ?? 1;
    const seen = first.get(t.symbol);
    if (seen === undefined) {
      first.set(t.symbol, { multiplier: m, expiry: t.expiry, at: i });
      return;
    }
    if (seen.multiplier !== m) {
      const path = ["trades", i, "multiplier"];
      problems.push({
        path,
        text: `${formatPath(path)}: ${JSON.stringify(t.symbol)} has multiplier ${m} here but ${seen.multiplier} at trades[${seen.at}]; a symbol is one contract, so list another contract size under its own symbol`,
      });
    } else if (seen.expiry !== t.expiry) {
      const path = ["trades", i, "expiry"];
      problems.push({
        path,
        text: `${formatPath(path)}: ${JSON.stringify(t.symbol)} expires ${t.expiry ?? "never"} here but ${seen.expiry ?? "never"} at trades[${seen.at}]; a symbol is one contract, so list each expiry under its own symbol (ESH6, ESM6)`,
      });
    }
  });
}

/** Longest record the engine grades: its daily curve has one point per day (100 years ≈ 36,525). */
export const MAX_SPAN_YEARS = 100;
const MAX_SPAN_MS = MAX_SPAN_YEARS * 365.25 * 86_400_000;

/**
 * A record spanning more than MAX_SPAN_YEARS (items at or before asOf; the benchmark series does
 * not count) is refused: it is a data error, and grading it would build a curve of millions of days.
 */
export function spanProblem(ledger: Ledger): string | null {
  const asOf = ledger.asOf === undefined ? Infinity : parseIsoMs(ledger.asOf);
  let lo = Infinity;
  let hi = -Infinity;
  const see = (iso: string) => {
    const ms = parseIsoMs(iso);
    if (ms > asOf) return;
    if (ms < lo) lo = ms;
    if (ms > hi) hi = ms;
  };
  for (const t of ledger.trades) see(t.time);
  for (const f of ledger.cashFlows) see(f.time);
  for (const p of ledger.prices) see(p.time);
  for (const e of ledger.events) see(e.time);
  if (lo === Infinity) return null;
  if (asOf !== Infinity) hi = asOf;
  if (hi - lo <= MAX_SPAN_MS) return null;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return `the ledger spans more than ${MAX_SPAN_YEARS} years (${day(lo)} to ${day(hi)}); check the times or set asOf`;
}

/** Slack for "the future": a date-only time of the trader's today is up to 14 hours ahead of UTC. */
const FUTURE_SLACK_MS = 86_400_000;

/**
 * Items dated after the caller's clock (with a day's slack) when the ledger sets no asOf: asOf
 * would default to the latest of them, and a year typed 2099 for 2023 made a 76-year record.
 */
function futureProblems(ledger: Ledger, now: number, problems: { path: (string | number)[]; text: string }[]): void {
  const limit = now + FUTURE_SLACK_MS;
  const today = new Date(now).toISOString().slice(0, 10);
  const check = (section: string, items: readonly { time: string }[]) => {
    for (let i = 0; i < items.length; i++) {
      const time = items[i].time;
      if (parseIsoMs(time) <= limit) continue;
      const path = [section, i, "time"];
      problems.push({
        path,
        text: `${formatPath(path)}: ${time} is in the future (today is ${today}); check the time, or set asOf to grade up to a date`,
      });
    }
  };
  check("trades", ledger.trades);
  check("cashFlows", ledger.cashFlows);
  check("prices", ledger.prices);
  check("events", ledger.events);
}

const TOP_RANK: Record<string, number> = {
  asOf: 0,
  baseCurrency: 0,
  trades: 1,
  cashFlows: 2,
  prices: 3,
  events: 4,
  benchmark: 5,
  riskFree: 6,
  fxRates: 7,
};

/** Orders problems by section (asOf, trades, cashFlows, prices, events, benchmark), then by element index; stable otherwise. */
function comparePaths(a: (string | number)[], b: (string | number)[]): number {
  const ra = a.length === 0 ? -1 : (TOP_RANK[String(a[0])] ?? 8);
  const rb = b.length === 0 ? -1 : (TOP_RANK[String(b[0])] ?? 8);
  if (ra !== rb) return ra - rb;
  const ia = typeof a[1] === "number" ? a[1] : -1;
  const ib = typeof b[1] === "number" ? b[1] : -1;
  return ia - ib;
}
