// Grader's generic statement template (docs/PRODUCT.md §"Statement files"): one row per trade or
// cash movement. Pure: text in, imported rows or row-level errors naming the line out. Nothing here
// reads the database or the network; the upload's service decides what to store.
import { parse } from "csv-parse/sync";
import type { AssetClass } from "~/lib/vocabulary";
import type { ImportedCashFlow, ImportedEvent, ImportedMark, ImportedTrade } from "../imported";

export const STATEMENT_TYPES = [
  "buy",
  "sell",
  "deposit",
  "withdrawal",
  "dividend",
  "interest",
  "fee",
  "withholding",
] as const;
export type StatementType = (typeof STATEMENT_TYPES)[number];

/** The template's columns in their order; only date and type are needed on every row. */
export const STATEMENT_COLUMNS = [
  "date",
  "type",
  "symbol",
  "quantity",
  "price",
  "fee",
  "currency",
  "amount",
  "asset_class",
  "account",
] as const;
type Column = (typeof STATEMENT_COLUMNS)[number];
const REQUIRED_COLUMNS: readonly Column[] = ["date", "type"];

// The template has no contract size or expiry column: futures, forex and CFDs come in a Flex
// statement, where IBKR gives both (graded on notional, DECISIONS 196).
const TEMPLATE_CLASSES = ["stock", "etf", "crypto", "option"] as const satisfies readonly AssetClass[];

/** More rows than this is refused whole: a statement is a history, not a tick file. */
export const MAX_STATEMENT_ROWS = 50_000;
/** At most this many row errors are listed; the file is refused either way. */
export const MAX_LISTED_ERRORS = 20;

export type StatementRows = {
  trades: ImportedTrade[];
  cashFlows: ImportedCashFlow[];
  /** The template has none; a Flex statement its open positions' marks. */
  marks: ImportedMark[];
  events: ImportedEvent[];
};
export type StatementParse = { ok: true; rows: StatementRows; lines: number } | { ok: false; errors: string[] };

// A spreadsheet runs a cell starting with one of these as a formula (CSV injection, OWASP). The
// file is refused rather than cleaned: the trader sees what we would not store, and nothing we
// later export from these rows can carry a formula.
const FORMULA_START = /^[=+\-@\t\r]/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:\d{2})?)?$/;
const NUMBER = /^\d+(?:\.\d+)?$/;
const CURRENCY = /^[A-Z]{3}$/;
const SYMBOL = /^[A-Za-z0-9][A-Za-z0-9.\-/: ]{0,39}$/;

/** A template file's text (already decoded, without its BOM) → imported rows, or the lines at fault. */
export function parseStatementCsv(text: string): StatementParse {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: false,
      max_record_size: 4096,
    }) as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    const e = error as { lines?: number; message?: string };
    return {
      ok: false,
      errors: [`line ${e.lines ?? 1}: this is not a readable CSV file (${cleanCsvError(e.message)})`],
    };
  }
  if (records.length === 0)
    return { ok: false, errors: ["The file is empty: it needs a header line and at least one row."] };
  const header = records[0]!.record.map((h) => h.trim().toLowerCase());
  const headerLine = records[0]!.info.lines;
  const errors: string[] = [];
  const unknown = header.filter((h) => !(STATEMENT_COLUMNS as readonly string[]).includes(h));
  if (unknown.length)
    errors.push(
      `line ${headerLine}: unknown column ${unknown.map((u) => `"${u.slice(0, 30)}"`).join(", ")} (the columns are ${STATEMENT_COLUMNS.join(", ")})`,
    );
  const missing = REQUIRED_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length) errors.push(`line ${headerLine}: the header lacks ${missing.join(" and ")}`);
  const twice = header.filter((h, i) => header.indexOf(h) !== i);
  if (twice.length) errors.push(`line ${headerLine}: column ${twice[0]} comes twice`);
  if (errors.length) return { ok: false, errors };
  if (records.length - 1 > MAX_STATEMENT_ROWS)
    return { ok: false, errors: [`The file has ${records.length - 1} rows; at most ${MAX_STATEMENT_ROWS} are read.`] };
  if (records.length === 1) return { ok: false, errors: ["The file has a header but no rows."] };

  const rows: StatementRows = { trades: [], cashFlows: [], marks: [], events: [] };
  for (const { record, info } of records.slice(1)) {
    const line = info.lines;
    if (record.length !== header.length) {
      errors.push(`line ${line}: ${record.length} cells where the header has ${header.length}`);
    } else {
      const cells = Object.fromEntries(header.map((h, i) => [h, record[i]!])) as Partial<Record<Column, string>>;
      const problem = readRow(cells, line, rows);
      if (problem) errors.push(`line ${line}: ${problem}`);
    }
    if (errors.length >= MAX_LISTED_ERRORS) {
      errors.push(`… and the file was read no further.`);
      break;
    }
  }
  if (errors.length) return { ok: false, errors };
  return { ok: true, rows, lines: records.length - 1 };
}

function cleanCsvError(message: string | undefined): string {
  return (message ?? "unknown error")
    .replace(/^Invalid Record Length: /, "")
    .split(":")[0]!
    .slice(0, 120);
}

/** One row into `into`; a sentence saying what is wrong otherwise. */
function readRow(cells: Partial<Record<Column, string>>, line: number, into: StatementRows): string | null {
  for (const [column, value] of Object.entries(cells))
    if (value && FORMULA_START.test(value))
      return `${column} starts with "${printable(value[0]!)}", which a spreadsheet would run as a formula; remove it`;
  const get = (c: Column) => (cells[c] ?? "").trim();
  const type = get("type").toLowerCase();
  if (!type) return "type is empty";
  if (!(STATEMENT_TYPES as readonly string[]).includes(type))
    return `type "${type.slice(0, 20)}" is not one of ${STATEMENT_TYPES.join(", ")}`;
  const time = readDate(get("date"));
  if (typeof time === "string") return time;
  const currency = get("currency").toUpperCase() || "USD";
  if (!CURRENCY.test(currency)) return `currency "${currency.slice(0, 10)}" is not a three-letter code such as USD`;
  const account = get("account").slice(0, 60);
  const externalId = `${account ? `${account}:` : ""}${line}`;
  const num = (c: Column, opts: { required: boolean; positive: boolean }): number | string | null => {
    const raw = get(c);
    if (!raw) return opts.required ? `${c} is empty` : null;
    if (!NUMBER.test(raw)) return `${c} is not a number`;
    const value = Number(raw);
    if (!Number.isFinite(value)) return `${c} is not a number`;
    if (opts.positive && value <= 0) return `${c} must be more than 0`;
    return value;
  };
  if (type === "buy" || type === "sell") {
    const symbol = get("symbol");
    if (!symbol) return "symbol is empty";
    if (!SYMBOL.test(symbol)) return `symbol "${symbol.slice(0, 20)}" has characters a ticker does not`;
    const quantity = num("quantity", { required: true, positive: true });
    if (typeof quantity === "string") return quantity;
    const price = num("price", { required: true, positive: false });
    if (typeof price === "string") return price;
    const fee = num("fee", { required: false, positive: false });
    if (typeof fee === "string") return fee;
    const assetClass = (get("asset_class").toLowerCase() || "stock") as AssetClass;
    if (!(TEMPLATE_CLASSES as readonly string[]).includes(assetClass))
      return `asset_class "${assetClass.slice(0, 20)}" is not one of ${TEMPLATE_CLASSES.join(", ")}`;
    into.trades.push({
      externalId,
      time,
      symbol: symbol.toUpperCase(),
      assetClass,
      side: type,
      quantity: quantity!,
      price: price!,
      fee: fee ?? 0,
      currency,
    });
    return null;
  }
  const amount = num("amount", { required: true, positive: true });
  if (typeof amount === "string") return amount;
  const symbol = get("symbol");
  if (symbol && !SYMBOL.test(symbol)) return `symbol "${symbol.slice(0, 20)}" has characters a ticker does not`;
  switch (type) {
    case "deposit":
      into.cashFlows.push({ externalId, time, amount: amount!, currency });
      break;
    case "withdrawal":
      into.cashFlows.push({ externalId, time, amount: -amount!, currency });
      break;
    case "dividend":
    case "interest":
      into.events.push({
        externalId,
        time,
        currency,
        kind: "income",
        amount: amount!,
        ...(symbol ? { symbol: symbol.toUpperCase() } : {}),
      });
      break;
    // A tax withheld costs the account like a fee (as Plaid's taxes are read, docs/SOURCES.md).
    case "fee":
    case "withholding":
      into.events.push({ externalId, time, currency, kind: "fee", amount: amount! });
      break;
  }
  return null;
}

function readDate(raw: string): Date | string {
  if (!raw) return "date is empty";
  const m = DATE.exec(raw);
  if (!m) return `date "${raw.slice(0, 30)}" is not a date like 2024-03-15 or 2024-03-15T14:30:00Z`;
  const [, y, mo, d, h = "00", mi = "00", s = "00", zone = "Z"] = m;
  const time = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${zone}`);
  // Date accepts 2024-02-30 by rolling over: read back what it made.
  if (Number.isNaN(time.getTime()) || (zone === "Z" && time.toISOString().slice(0, 10) !== `${y}-${mo}-${d}`))
    return `date "${raw.slice(0, 30)}" is not a day of the calendar`;
  if (time.getTime() > Date.now() + 86_400_000) return `date ${raw.slice(0, 30)} is in the future`;
  if (time.getUTCFullYear() < 1970) return `date ${raw.slice(0, 30)} is before 1970`;
  return time;
}

function printable(c: string): string {
  return c === "\t" ? "a tab" : c === "\r" ? "a carriage return" : c;
}
