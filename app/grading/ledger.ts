// Ledger schema (zod) and validation. parseLedger is the only gate: grade() trusts its output.
import { z } from "zod";
import { parseIsoMs } from "./time";

export const ASSET_CLASSES = ["stock", "etf", "crypto", "option"] as const;
export type AssetClass = (typeof ASSET_CLASSES)[number];

const isoTime = z
  .string({ required_error: "is required", invalid_type_error: "must be an ISO 8601 time string" })
  .refine((s) => !Number.isNaN(parseIsoMs(s)), {
    message: "must be an ISO 8601 date (YYYY-MM-DD) or date-time with a zone (Z or ±HH:MM)",
  });

const text = (what: string) =>
  z
    .string({ required_error: "is required", invalid_type_error: `must be a ${what} string` })
    .min(1, "must not be empty");

const num = () =>
  z
    .number({ required_error: "is required", invalid_type_error: "must be a number" })
    .finite("must be finite");

const TradeSchema = z.object({
  id: z.union([text("non-empty"), num()], {
    errorMap: () => ({ message: "must be a non-empty string or a number" }),
  }).transform((v) => String(v)),
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
});

const CashFlowSchema = z.object({
  account: text("non-empty"),
  time: isoTime,
  amount: num(),
});

const PriceSchema = z.object({
  symbol: text("non-empty"),
  time: isoTime,
  price: num().gte(0, "must be ≥ 0"),
});

const arrayOf = <T extends z.ZodTypeAny>(item: T) =>
  z.array(item, { invalid_type_error: "must be an array", required_error: "is required" });

export const LedgerSchema = z
  .object(
    {
      asOf: isoTime.optional(),
      trades: arrayOf(TradeSchema),
      cashFlows: arrayOf(CashFlowSchema).default([]),
      prices: arrayOf(PriceSchema).default([]),
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
 */
export function parseLedger(input: unknown): ParseResult {
  let value = input;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input);
    } catch (e) {
      return { ok: false, problems: [`(root): invalid JSON (${(e as Error).message})`] };
    }
  }
  const result = LedgerSchema.safeParse(value);
  const problems: { path: (string | number)[]; text: string }[] = [];
  if (!result.success) {
    for (const issue of result.error.issues) {
      let reason = issue.message;
      if (issue.code === z.ZodIssueCode.invalid_type && issue.received === "undefined") reason = "is required";
      problems.push({ path: issue.path, text: `${formatPath(issue.path)}: ${reason}` });
    }
  }
  // Duplicate ids are checked on the raw input so they are reported alongside other problems.
  const trades = (value as { trades?: unknown } | null)?.trades;
  if (Array.isArray(trades)) {
    const seen = new Map<string, number>();
    for (let i = 0; i < trades.length; i++) {
      const raw = (trades[i] as { id?: unknown } | null)?.id;
      if (typeof raw !== "string" && typeof raw !== "number") continue;
      const id = String(raw);
      const first = seen.get(id);
      if (first === undefined) seen.set(id, i);
      else {
        const path = ["trades", i, "id"];
        problems.push({ path, text: `${formatPath(path)}: duplicate of trades[${first}].id (${JSON.stringify(id)})` });
      }
    }
  }
  if (result.success && problems.length === 0) return { ok: true, ledger: result.data };
  problems.sort((a, b) => comparePaths(a.path, b.path));
  return { ok: false, problems: [...new Set(problems.map((p) => p.text))] };
}

const TOP_RANK: Record<string, number> = { asOf: 0, trades: 1, cashFlows: 2, prices: 3 };

/** Orders problems by section (asOf, trades, cashFlows, prices), then by element index; stable otherwise. */
function comparePaths(a: (string | number)[], b: (string | number)[]): number {
  const ra = a.length === 0 ? -1 : (TOP_RANK[String(a[0])] ?? 4);
  const rb = b.length === 0 ? -1 : (TOP_RANK[String(b[0])] ?? 4);
  if (ra !== rb) return ra - rb;
  const ia = typeof a[1] === "number" ? a[1] : -1;
  const ib = typeof b[1] === "number" ? b[1] : -1;
  return ia - ib;
}
