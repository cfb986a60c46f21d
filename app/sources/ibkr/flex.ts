// An Interactive Brokers Activity Flex statement (XML) as ledger rows (docs/SOURCES.md, "Interactive
// Brokers"). Pure: no network, no database, no environment. The Flex Web Service import and the
// statement upload both call parseFlexStatement, so a file and a fetched statement map alike.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import type { AssetClass } from "~/lib/vocabulary";
import type { ImportedCashFlow, ImportedEvent, ImportedMark, ImportedTrade } from "../imported";

export type FlexConversionRate = { date: string; from: string; to: string; rate: number };

export type FlexStatement = {
  ok: true;
  /** The IBKR account id (U1234567): one IBKR account, one Grader user. */
  accountId: string;
  /** The statement's period, ISO dates (inclusive). */
  fromDate: string;
  toDate: string;
  /** The account's base currency when the statement names it (AccountInformation). */
  baseCurrency?: string;
  /** When the account was opened (AccountInformation dateOpened), ISO: where its history starts. */
  dateOpened?: string;
  trades: ImportedTrade[];
  cashFlows: ImportedCashFlow[];
  events: ImportedEvent[];
  marks: ImportedMark[];
  conversionRates: FlexConversionRate[];
  /** Rows left out, by reason: counted, never silently dropped. */
  skipped: Record<string, number>;
};
export type FlexProblems = { ok: false; problems: string[]; code?: number };
export type FlexResult = FlexStatement | FlexProblems;

type Attrs = Record<string, string | undefined>;

// Elements that may repeat; fast-xml-parser makes one child an object otherwise.
const LISTS = new Set([
  "FlexStatement",
  "Trade",
  "CashTransaction",
  "CorporateAction",
  "ConversionRate",
  "OpenPosition",
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseAttributeValue: false,
  parseTagValue: false,
  isArray: (name) => LISTS.has(name),
});

/** Flex asset categories the ledger holds; the rest (bonds, bills, warrants, funds…) are counted. */
const CATEGORY: Record<string, AssetClass> = {
  STK: "stock",
  OPT: "option",
  FOP: "option",
  FSOPT: "option",
  FUT: "future",
  CFD: "cfd",
  FXCFD: "cfd",
  CRYPTO: "crypto",
};

const num = (s: string | undefined): number => (s === undefined || s.trim() === "" ? NaN : Number(s.replace(/,/g, "")));

/** A Flex date (yyyyMMdd, yyyy-MM-dd or MM/dd/yyyy, the formats a query may choose) as ISO, or null. */
export function flexDate(s: string | undefined): string | null {
  if (!s) return null;
  const t = s.trim();
  let m = /^(\d{4})(\d{2})(\d{2})$/.exec(t) ?? /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(t);
  if (m) return `${m[3]}-${m[1]}-${m[2]}`;
  return null;
}

/**
 * A Flex date-time ("20250314;093015", "2025-03-14;09:30:15", "2025-03-14, 09:30:15" or a date
 * alone) as a Date. The statement's clock (US Eastern by default) is read as UTC: the grade works by
 * day, and a shift of hours never moves a trade across the statement's own dates.
 */
export function flexTime(s: string | undefined): Date | null {
  if (!s) return null;
  const [d, t] = s.trim().split(/[;,]\s*|\s+/, 2);
  const date = flexDate(d);
  if (!date) return null;
  let time = "00:00:00";
  if (t) {
    const m = /^(\d{2}):?(\d{2}):?(\d{2})$/.exec(t);
    if (!m) return null;
    time = `${m[1]}:${m[2]}:${m[3]}`;
  }
  const out = new Date(`${date}T${time}Z`);
  return Number.isNaN(out.getTime()) ? null : out;
}

const list = (x: unknown): Attrs[] => (Array.isArray(x) ? (x as Attrs[]) : []);
/** A section's rows: <Trades><Trade …/>…</Trades> (an empty section is "" to the parser). */
const rows = (statement: Record<string, unknown>, section: string, row: string): Attrs[] => {
  const s = statement[section];
  return s && typeof s === "object" ? list((s as Record<string, unknown>)[row]) : [];
};
/** Detail rows only: a query may also carry summaries (levelOfDetail SUMMARY, ORDER, CLOSED_LOT…). */
const isDetail = (r: Attrs) => !r.levelOfDetail || r.levelOfDetail === "EXECUTION" || r.levelOfDetail === "DETAIL";

/**
 * Parses an Activity Flex statement. Problems (not XML, an error answer, no statement, several
 * accounts, a missing account id or period) refuse the whole file; a row that cannot be mapped is
 * counted in `skipped` under its reason.
 */
export function parseFlexStatement(xml: string): FlexResult {
  if (typeof xml !== "string" || xml.trim() === "") return { ok: false, problems: ["The statement is empty."] };
  const valid = XMLValidator.validate(xml);
  if (valid !== true)
    return { ok: false, problems: [`The statement is not valid XML (line ${valid.err.line}: ${valid.err.msg}).`] };
  const doc = parser.parse(xml) as Record<string, unknown>;

  // The Web Service answers errors as a FlexStatementResponse; a saved one is not a statement.
  const response = doc.FlexStatementResponse as Record<string, unknown> | undefined;
  if (response) {
    const code = Number(response.ErrorCode);
    const message = typeof response.ErrorMessage === "string" ? response.ErrorMessage : "no statement";
    return {
      ok: false,
      problems: [`Interactive Brokers answered with an error, not a statement: ${message}`],
      ...(Number.isFinite(code) ? { code } : {}),
    };
  }
  const root = doc.FlexQueryResponse as Record<string, unknown> | undefined;
  if (!root || typeof root !== "object")
    return { ok: false, problems: ["This is not a Flex statement: its root element is not FlexQueryResponse."] };
  if (root.type && root.type !== "AF")
    return {
      ok: false,
      problems: [
        `This is a ${root.type === "TCF" ? "Trade Confirmation" : String(root.type)} Flex query; an Activity Flex Query is needed.`,
      ],
    };
  const statements = list(
    (root.FlexStatements as Record<string, unknown> | undefined)?.FlexStatement,
  ) as unknown as Record<string, unknown>[];
  if (statements.length === 0) return { ok: false, problems: ["The statement holds no FlexStatement."] };
  const accounts = [...new Set(statements.map((s) => String(s.accountId ?? "")))];
  if (accounts.length > 1)
    return {
      ok: false,
      problems: [
        `The statement holds ${accounts.length} accounts (${accounts.join(", ")}); one account per statement.`,
      ],
    };
  const accountId = accounts[0]!;
  if (!/^[A-Za-z0-9_-]{2,32}$/.test(accountId)) return { ok: false, problems: ["The statement names no account id."] };
  const froms = statements.map((s) => flexDate(s.fromDate as string | undefined));
  const tos = statements.map((s) => flexDate(s.toDate as string | undefined));
  if (froms.some((d) => !d) || tos.some((d) => !d))
    return { ok: false, problems: ["The statement has no period (fromDate, toDate)."] };

  const out: FlexStatement = {
    ok: true,
    accountId,
    fromDate: (froms as string[]).sort()[0]!,
    toDate: (tos as string[]).sort().at(-1)!,
    trades: [],
    cashFlows: [],
    events: [],
    marks: [],
    conversionRates: [],
    skipped: {},
  };
  const skip = (why: string) => (out.skipped[why] = (out.skipped[why] ?? 0) + 1);
  for (const s of statements) {
    const info = (s.AccountInformation ?? undefined) as Attrs | undefined;
    if (info?.currency) out.baseCurrency = info.currency;
    const opened = flexDate(info?.dateOpened);
    if (opened) out.dateOpened = opened;
    for (const r of rows(s, "Trades", "Trade")) mapTrade(r, out, skip);
    for (const r of rows(s, "CashTransactions", "CashTransaction")) mapCash(r, out, skip);
    mapCorporateActions(rows(s, "CorporateActions", "CorporateAction"), out, skip);
    for (const r of rows(s, "ConversionRates", "ConversionRate")) {
      const date = flexDate(r.reportDate);
      const rate = num(r.rate);
      if (date && r.fromCurrency && r.toCurrency && rate > 0)
        out.conversionRates.push({ date, from: r.fromCurrency, to: r.toCurrency, rate });
    }
    for (const r of rows(s, "OpenPositions", "OpenPosition")) {
      if (!isDetail(r) && r.levelOfDetail !== "SUMMARY") continue;
      const time = flexTime(r.reportDate);
      const price = num(r.markPrice);
      const symbol = symbolOf(r);
      if (time && symbol && price >= 0) out.marks.push({ symbol, time, price, currency: r.currency ?? "USD" });
    }
  }
  return out;
}

/** Futures keep IBKR's symbol (ESM5); an option's OCC-style symbol loses its padding. */
function symbolOf(r: Attrs): string | null {
  const s = r.symbol?.trim();
  if (!s) return null;
  return s.replace(/\s+/g, " ");
}

function mapTrade(r: Attrs, out: FlexStatement, skip: (why: string) => void): void {
  if (!isDetail(r)) return;
  const category = r.assetCategory ?? "";
  if (category === "CASH") return mapExchange(r, out, skip);
  const assetClass = r.subCategory === "ETF" && category === "STK" ? "etf" : CATEGORY[category];
  if (!assetClass) return skip(`trade in ${category || "an unknown asset category"}`);
  const id = r.transactionID || r.tradeID;
  const time = flexTime(r.dateTime) ?? flexTime(r.tradeDate);
  const symbol = symbolOf(r);
  const quantity = num(r.quantity);
  const price = num(r.tradePrice);
  if (!id || !time || !symbol || !Number.isFinite(quantity) || quantity === 0 || !(price >= 0))
    return skip("trade without its id, time, symbol, quantity or price");
  const buySell = (r.buySell ?? "").toUpperCase();
  const side = buySell.startsWith("BUY") ? "buy" : buySell.startsWith("SELL") ? "sell" : quantity > 0 ? "buy" : "sell";
  const currency = r.currency || "USD";
  const multiplier = num(r.multiplier);
  const units = Math.abs(quantity);
  // A cancellation ("BUY (Ca.)", TradeCancel) removes the trade it cancels rather than trading back.
  if (buySell.includes("(CA.)") || r.transactionType === "TradeCancel") {
    out.events.push({
      externalId: `ibkr:cancel:${id}`,
      time,
      currency,
      kind: "cancel",
      symbol,
      quantity: units,
      amount: units * price,
    });
    return;
  }
  // IBKR states commission as a negative amount in its own currency; in the trade's currency it is
  // the trade's fee, in another (a EUR stock's commission charged in USD) a fee event.
  const commission = Math.abs(num(r.ibCommission) || 0);
  const commissionCurrency = r.ibCommissionCurrency || currency;
  const sameCurrency = commissionCurrency === currency;
  const expiry = flexDate(r.expiry);
  out.trades.push({
    externalId: `ibkr:${id}`,
    time,
    symbol,
    assetClass,
    side,
    quantity: units,
    price,
    fee: sameCurrency ? commission : 0,
    currency,
    ...(multiplier > 0 && multiplier !== 1 ? { multiplier } : {}),
    ...(expiry && (assetClass === "future" || assetClass === "option") ? { expiry } : {}),
  });
  if (!sameCurrency && commission > 0)
    out.events.push({
      externalId: `ibkr:commission:${id}`,
      time,
      currency: commissionCurrency,
      kind: "fee",
      amount: commission,
    });
}

/**
 * A CASH trade (EUR.USD): IBKR settles spot currency trades into the account's cash balances, so
 * it is an exchange of one balance for another, not a position (DECISIONS 206). Bought 20,000
 * EUR.USD at 1.04 sells 20,800 USD and buys 20,000 EUR; the engine revalues the euros held daily.
 */
function mapExchange(r: Attrs, out: FlexStatement, skip: (why: string) => void): void {
  const id = r.transactionID || r.tradeID;
  const time = flexTime(r.dateTime) ?? flexTime(r.tradeDate);
  const pair = /^([A-Z]{3})\.([A-Z]{3})$/.exec((r.symbol ?? "").trim());
  const quantity = Math.abs(num(r.quantity));
  const price = num(r.tradePrice);
  if (!id || !time || !pair || !(quantity > 0) || !(price > 0))
    return skip("currency exchange without its id, time, pair, quantity or price");
  const [, base, quote] = pair as unknown as [string, string, string];
  const buySell = (r.buySell ?? "").toUpperCase();
  const bought = buySell.startsWith("BUY") ? true : buySell.startsWith("SELL") ? false : num(r.quantity) > 0;
  // A cancellation is the opposite exchange at the same price: it undoes the one it cancels.
  const cancel = buySell.includes("(CA.)") || r.transactionType === "TradeCancel";
  const buysBase = cancel ? !bought : bought;
  // The quote side as IBKR booked it (proceeds, to the cent), else quantity × price.
  const proceeds = Math.abs(num(r.proceeds));
  const quoted = proceeds > 0 ? proceeds : quantity * price;
  const [sell, sellAmount, buy, buyAmount] = buysBase
    ? [quote, quoted, base, quantity]
    : [base, quantity, quote, quoted];
  const commission = cancel ? 0 : Math.abs(num(r.ibCommission) || 0);
  const commissionCurrency = r.ibCommissionCurrency || quote;
  const feeInSold = commission > 0 && commissionCurrency === sell;
  out.events.push({
    externalId: `ibkr:${cancel ? "cancel:" : ""}${id}`,
    time,
    // The side that is not USD (the pair's base when neither is): see ImportedEvent "fx".
    currency: base === "USD" ? quote : base,
    kind: "fx",
    sell,
    sellAmount,
    buy,
    buyAmount,
    ...(feeInSold ? { fee: commission } : {}),
  });
  if (commission > 0 && !feeInSold)
    out.events.push({
      externalId: `ibkr:commission:${id}`,
      time,
      currency: commissionCurrency,
      kind: "fee",
      amount: commission,
    });
}

/** CashTransaction types (ibflex's CashAction) and what each is in the ledger. */
function mapCash(r: Attrs, out: FlexStatement, skip: (why: string) => void): void {
  if (!isDetail(r)) return;
  const id = r.transactionID || r.actionID;
  const time = flexTime(r.dateTime) ?? flexTime(r.settleDate) ?? flexTime(r.reportDate);
  const amount = num(r.amount);
  if (!id || !time || !Number.isFinite(amount) || amount === 0)
    return skip("cash transaction without id, time or amount");
  const currency = r.currency || "USD";
  const symbol = r.symbol?.trim() || undefined;
  const externalId = `ibkr:cash:${id}`;
  const income = () =>
    void out.events.push({ externalId, time, currency, kind: "income", amount, ...(symbol ? { symbol } : {}) });
  const fee = () => out.events.push({ externalId, time, currency, kind: "fee", amount: -amount });
  const signed = () => void (amount > 0 ? income() : fee());
  switch (r.type) {
    case "Deposits & Withdrawals":
    case "Deposits/Withdrawals":
      out.cashFlows.push({ externalId, time, amount, currency });
      return;
    case "Dividends":
    case "Payment In Lieu Of Dividends":
    case "Broker Interest Received":
    case "Bond Interest Received":
    case "Withholding Tax":
    case "Broker Interest Paid":
    case "Bond Interest Paid":
    case "Other Fees":
    case "Commission Adjustments":
    case "Advisor Fees":
      // Received is income, paid is a fee; a reversal (a dividend taken back, tax refunded) the other.
      return signed();
    default:
      return skip(`cash transaction ${r.type ?? "of no type"}`);
  }
}

/**
 * Corporate actions: forward and reverse splits and stock dividends as the change in units per
 * symbol (IBKR states a reverse split as the old units removed and the new added); a spin-off as
 * the new shares at no cost; a merger (TC) as a rename when it states one line out and one in.
 */
function mapCorporateActions(list: Attrs[], out: FlexStatement, skip: (why: string) => void): void {
  const groups = new Map<string, Attrs[]>();
  for (const r of list) {
    if (!isDetail(r)) continue;
    const key = `${r.type}|${r.actionID || r.transactionID || ""}|${flexDate(r.reportDate) ?? ""}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  for (const group of groups.values()) {
    const first = group[0]!;
    const time = flexTime(first.dateTime) ?? flexTime(first.reportDate);
    const id = first.actionID || first.transactionID;
    if (!time || !id) {
      skip("corporate action without id or time");
      continue;
    }
    const type = first.type ?? "";
    if (type === "FS" || type === "FI" || type === "RS" || type === "SD") {
      const bySymbol = new Map<string, number>();
      for (const r of group) {
        const symbol = symbolOf(r);
        const q = num(r.quantity);
        if (symbol && Number.isFinite(q)) bySymbol.set(symbol, (bySymbol.get(symbol) ?? 0) + q);
      }
      for (const [symbol, quantity] of bySymbol) {
        if (quantity === 0) continue;
        out.events.push({
          externalId: `ibkr:ca:${id}:${symbol}`,
          time,
          currency: first.currency || "USD",
          kind: "shares",
          symbol,
          quantity,
          reason: type === "SD" ? "stock dividend" : type === "RS" ? "reverse split" : "split",
        });
      }
    } else if (type === "SO") {
      for (const r of group) {
        const symbol = symbolOf(r);
        const q = num(r.quantity);
        if (symbol && q > 0)
          out.events.push({
            externalId: `ibkr:ca:${id}:${symbol}`,
            time,
            currency: r.currency || "USD",
            kind: "spinoff",
            symbol,
            quantity: q,
            price: 0,
          });
      }
    } else if (type === "TC") {
      const gone = group.filter((r) => num(r.quantity) < 0);
      const came = group.filter((r) => num(r.quantity) > 0);
      const from = gone.length === 1 ? symbolOf(gone[0]!) : null;
      const to = came.length === 1 ? symbolOf(came[0]!) : null;
      if (from && to)
        out.events.push({
          externalId: `ibkr:ca:${id}`,
          time,
          currency: first.currency || "USD",
          kind: "merger",
          symbol: from,
          to,
          ratio: num(came[0]!.quantity) / -num(gone[0]!.quantity),
        });
      else skip("merger without one line out and one in");
    } else skip(`corporate action ${type || "of no type"}`);
  }
}
