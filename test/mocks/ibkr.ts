import crypto from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { http, HttpResponse } from "msw";
import { DEMO_IBKR_FLEX_URL } from "../../app/sources/wallet-demo";
import { simDelay } from "./sim-delay";

/**
 * A simulator of Interactive Brokers' Flex Web Service v3 (PROVIDERS.md §12), for demo mode and
 * tests. SendRequest (t = token, q = query id, v = 3, fd/td = yyyymmdd, at most 365 days) answers a
 * FlexStatementResponse with a ReferenceCode and the GetStatement Url; GetStatement answers 1019
 * ("generation in progress") PENDING_POLLS times per reference code, then the Activity statement
 * as a FlexQueryResponse whose rows are the period's. No User-Agent: 1020. A query id that is not
 * a number: 1014. More than RATE_LIMIT SendRequests a minute from one token: 1018. An unknown
 * reference code: 1017.
 *
 * Tokens (any numeric query id):
 *   demo                 the demo account (DEMO_IBKR below), account U9900001
 *   demo-<anything>      another demo account: its own account id, the same history
 *   sim-expires-<any>    links, then every later SendRequest answers 1012 (token expired)
 *   sim-busy-<any>       links, then its next SendRequest answers 1018 once
 *   sim-ip-<any>         1013 (IP restriction) at once
 * Any other token: 1015 (token invalid).
 */

export const PENDING_POLLS = 2;
const RATE_LIMIT = 30;
const DEMO_ACCOUNT = "U9900001";

type Row = Record<string, string | number>;
type Dated = { date: string; row: Row };

/** When the demo account was opened: the import walks windows back until it. */
export const DEMO_IBKR_OPENED = "2025-01-02";

const fut = (symbol: string, expiry: string) => ({
  assetCategory: "FUT",
  symbol,
  underlyingSymbol: "ES",
  multiplier: 50,
  expiry,
});
const opt = {
  assetCategory: "OPT",
  symbol: "AAPL  260116C00250000",
  underlyingSymbol: "AAPL",
  multiplier: 100,
  strike: 250,
  expiry: "20260116",
  putCall: "C",
};
const stk = (symbol: string) => ({ assetCategory: "STK", subCategory: "COMMON", symbol, multiplier: 1 });

/**
 * The demo history, small enough to compute by hand (the figures are in test/integration/ibkr.test.ts):
 * USD 100,000 deposited; AAPL 100 bought at 200 and sold at 230; NVDA 10 bought at 1,200, split 10
 * for 1, 100 sold at 130; EUR 20,000 bought at 1.04 USD (EUR.USD) and sold at 1.17; SAP (EUR) 50
 * bought at 240 and sold at 270 with a dividend and its withholding tax; one ES contract held over
 * the March roll (ESH6 at 6,000 → 6,100, then ESM6 6,150 → 6,200); two AAPL calls bought at 5 and
 * sold at 8.5; interest, a fee and a withdrawal. Fees: 1 USD a stock fill, 3 EUR a SAP fill, 2.25
 * USD a contract, 2 USD a forex fill, 0.65 USD an option contract.
 */
export const DEMO_IBKR: { trades: Dated[]; cash: Dated[]; actions: Dated[] } = (() => {
  let id = 5000;
  const trade = (
    date: string,
    time: string,
    instrument: Row,
    side: "BUY" | "SELL",
    qty: number,
    price: number,
    fee: number,
    currency = "USD",
  ): Dated => {
    id++;
    return {
      date,
      row: {
        currency,
        fxRateToBase: currency === "EUR" ? 1.08 : 1,
        ...instrument,
        tradeID: 700000 + id,
        transactionID: 900000 + id,
        reportDate: date.replaceAll("-", ""),
        tradeDate: date.replaceAll("-", ""),
        dateTime: `${date.replaceAll("-", "")};${time}`,
        quantity: side === "BUY" ? qty : -qty,
        tradePrice: price,
        proceeds: Number((side === "BUY" ? -1 : 1) * qty * price * Number(instrument.multiplier ?? 1)).toFixed(2),
        ibCommission: -fee,
        ibCommissionCurrency: instrument.assetCategory === "CASH" ? "USD" : currency,
        buySell: side,
        openCloseIndicator: "O",
        transactionType: "ExchTrade",
        levelOfDetail: "EXECUTION",
      },
    };
  };
  const cash = (date: string, type: string, amount: number, currency = "USD", symbol = ""): Dated => {
    id++;
    return {
      date,
      row: {
        currency,
        fxRateToBase: currency === "EUR" ? 1.08 : 1,
        symbol,
        dateTime: `${date.replaceAll("-", "")};120000`,
        settleDate: date.replaceAll("-", ""),
        reportDate: date.replaceAll("-", ""),
        amount,
        type,
        transactionID: 800000 + id,
        levelOfDetail: "DETAIL",
      },
    };
  };
  const eurusd = { assetCategory: "CASH", symbol: "EUR.USD", multiplier: 1 };
  return {
    trades: [
      trade("2025-01-07", "100500", stk("AAPL"), "BUY", 100, 200, 1),
      trade("2025-02-03", "093000", eurusd, "BUY", 20000, 1.04, 2),
      trade("2025-02-04", "091500", stk("SAP"), "BUY", 50, 240, 3, "EUR"),
      trade("2025-03-03", "100000", stk("NVDA"), "BUY", 10, 1200, 1),
      trade("2025-04-10", "143000", stk("AAPL"), "SELL", 100, 230, 1),
      trade("2025-07-01", "101500", stk("SAP"), "SELL", 50, 270, 3, "EUR"),
      trade("2025-09-15", "150000", stk("NVDA"), "SELL", 100, 130, 1),
      trade("2025-10-01", "093000", eurusd, "SELL", 20000, 1.17, 2),
      trade("2025-11-03", "110000", opt, "BUY", 2, 5, 1.3),
      trade("2025-12-15", "093100", fut("ESH6", "20260320"), "BUY", 1, 6000, 2.25),
      trade("2026-01-05", "110000", opt, "SELL", 2, 8.5, 1.3),
      // The roll: the March contract sold and the June one bought the same minute.
      trade("2026-03-13", "100000", fut("ESH6", "20260320"), "SELL", 1, 6100, 2.25),
      trade("2026-03-13", "100000", fut("ESM6", "20260618"), "BUY", 1, 6150, 2.25),
      trade("2026-05-20", "150000", fut("ESM6", "20260618"), "SELL", 1, 6200, 2.25),
    ],
    cash: [
      cash("2025-01-06", "Deposits/Withdrawals", 100000),
      cash("2025-05-15", "Dividends", 117.5, "EUR", "SAP"),
      cash("2025-05-15", "Withholding Tax", -30.99, "EUR", "SAP"),
      cash("2026-01-05", "Broker Interest Received", 45.1),
      cash("2026-02-03", "Other Fees", -10),
      cash("2026-11-20", "Deposits/Withdrawals", -5000),
    ],
    actions: [
      {
        date: "2025-06-10",
        row: {
          currency: "USD",
          assetCategory: "STK",
          symbol: "NVDA",
          reportDate: "20250610",
          dateTime: "20250610;202500",
          actionDescription: "NVDA(US67066G1040) SPLIT 10 FOR 1 (NVDA, NVIDIA CORP, US67066G1040)",
          quantity: 90,
          amount: 0,
          proceeds: 0,
          value: 0,
          type: "FS",
          transactionID: 600001,
          actionID: 610001,
          levelOfDetail: "DETAIL",
        },
      },
    ],
  };
})();

const escape = (v: string | number) =>
  String(v).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;").replace(/>/g, "&gt;");
const element = (name: string, row: Row) =>
  `<${name} ${Object.entries(row)
    .map(([k, v]) => `${k}="${escape(v)}"`)
    .join(" ")} />`;

/** The Activity statement of `account` over [from, to] (ISO dates), as IBKR writes it. */
export function demoStatement(account: string, from: string, to: string): string {
  const within = (d: Dated) => d.date >= from && d.date <= to;
  const withAccount = (d: Dated) => ({ accountId: account, ...d.row });
  const ymd = (iso: string) => iso.replaceAll("-", "");
  return [
    `<FlexQueryResponse queryName="Grader" type="AF">`,
    `<FlexStatements count="1">`,
    `<FlexStatement accountId="${account}" fromDate="${ymd(from)}" toDate="${ymd(to)}" period="" whenGenerated="${ymd(new Date().toISOString().slice(0, 10))};120000">`,
    element("AccountInformation", {
      accountId: account,
      currency: "USD",
      name: "Demo Trader",
      accountType: "Individual",
      dateOpened: ymd(DEMO_IBKR_OPENED),
    }),
    `<Trades>`,
    ...DEMO_IBKR.trades.filter(within).map((d) => element("Trade", withAccount(d))),
    `</Trades>`,
    `<CashTransactions>`,
    ...DEMO_IBKR.cash.filter(within).map((d) => element("CashTransaction", withAccount(d))),
    `</CashTransactions>`,
    `<CorporateActions>`,
    ...DEMO_IBKR.actions.filter(within).map((d) => element("CorporateAction", withAccount(d))),
    `</CorporateActions>`,
    `<ConversionRates>`,
    element("ConversionRate", { reportDate: ymd(to), fromCurrency: "EUR", toCurrency: "USD", rate: 1.08 }),
    `</ConversionRates>`,
    `</FlexStatement>`,
    `</FlexStatements>`,
    `</FlexQueryResponse>`,
  ].join("\n");
}

/** The account a demo or sim token reads: the demo's for "demo", else one of its own. */
export function ibkrAccountOf(token: string): string {
  if (token === "demo") return DEMO_ACCOUNT;
  const n = parseInt(crypto.createHash("sha256").update(token).digest("hex").slice(0, 8), 16) % 1_000_000;
  return `U8${String(n).padStart(6, "0")}`;
}

const stamp = () => "03 December, 2026 10:37 AM EDT";
const fail = (code: number, message: string) =>
  new HttpResponse(
    `<FlexStatementResponse timestamp="${stamp()}">\n<Status>Fail</Status>\n<ErrorCode>${code}</ErrorCode>\n<ErrorMessage>${message}</ErrorMessage>\n</FlexStatementResponse>`,
    { headers: { "content-type": "text/xml" } },
  );
const xml = (body: string) => new HttpResponse(body, { headers: { "content-type": "text/xml" } });

type Reference = { token: string; account: string; from: string; to: string; polls: number };
// IBKR is one service, but the simulator runs inside each server process, and an import's steps
// move between the processes that share a database (replicas, workers, a test's restarted server).
// So what IBKR remembers — reference codes with their polls, statements served per token — is kept
// in files every process on the machine reads, as the one service would.
const STATE_DIR = path.join(os.tmpdir(), "grader-ibkr-simulator");
const stateFile = (kind: "ref" | "token", key: string) =>
  path.join(STATE_DIR, `${kind}-${crypto.createHash("sha256").update(key).digest("hex").slice(0, 32)}.json`);
function remember(kind: "ref" | "token", key: string, value: unknown) {
  mkdirSync(STATE_DIR, { recursive: true });
  writeFileSync(stateFile(kind, key), JSON.stringify(value));
}
function recall<T>(kind: "ref" | "token", key: string): T | undefined {
  try {
    return JSON.parse(readFileSync(stateFile(kind, key), "utf8")) as T;
  } catch {
    return undefined;
  }
}
type TokenState = { served: number; busyDone: boolean };
const tokenState = (token: string): TokenState => recall<TokenState>("token", token) ?? { served: 0, busyDone: false };
// The rate limit is counted per process: a looser limit, never a stricter one.
const sends = new Map<string, number[]>();

const iso = (yyyymmdd: string | null) => {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(yyyymmdd ?? "");
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
};

export function ibkrHandlers() {
  const base = DEMO_IBKR_FLEX_URL;
  return [
    http.get(`${base}/SendRequest`, async ({ request }) => {
      await simDelay(120);
      const url = new URL(request.url);
      if (!request.headers.get("user-agent")) return fail(1020, "Invalid request or unable to validate request.");
      const token = url.searchParams.get("t") ?? "";
      const query = url.searchParams.get("q") ?? "";
      if (url.searchParams.get("v") !== "3") return fail(1020, "Invalid request or unable to validate request.");
      if (token.startsWith("sim-ip-")) return fail(1013, "IP restriction.");
      if (!(token === "demo" || token.startsWith("demo-") || token.startsWith("sim-")))
        return fail(1015, "Token is invalid.");
      if (!/^\d{1,12}$/.test(query)) return fail(1014, "Query is invalid.");
      const now = Date.now();
      const recent = (sends.get(token) ?? []).filter((t) => now - t < 60_000);
      recent.push(now);
      sends.set(token, recent);
      if (recent.length > RATE_LIMIT)
        return fail(1018, "Too many requests have been made from this token. Please try again shortly.");
      // The expiring and busy tokens work for the link (one statement served), then fail.
      const state = tokenState(token);
      if (token.startsWith("sim-expires-") && state.served > 0) return fail(1012, "Token has expired.");
      if (token.startsWith("sim-busy-") && state.served > 0 && !state.busyDone) {
        remember("token", token, { ...state, busyDone: true });
        return fail(1018, "Too many requests have been made from this token. Please try again shortly.");
      }
      const today = new Date().toISOString().slice(0, 10);
      const to = iso(url.searchParams.get("td")) ?? today;
      const from =
        iso(url.searchParams.get("fd")) ?? new Date(Date.parse(to) - 364 * 86_400_000).toISOString().slice(0, 10);
      const span = (Date.parse(to) - Date.parse(from)) / 86_400_000;
      if (span < 0 || span > 365) return fail(1020, "Invalid request or unable to validate request.");
      const code = String(crypto.randomInt(1_000_000_000, 9_999_999_999));
      remember("ref", code, { token, account: ibkrAccountOf(token), from, to, polls: 0 } satisfies Reference);
      return xml(
        `<FlexStatementResponse timestamp="${stamp()}">\n<Status>Success</Status>\n<ReferenceCode>${code}</ReferenceCode>\n<Url>${base}/GetStatement</Url>\n</FlexStatementResponse>`,
      );
    }),
    http.get(`${base}/GetStatement`, async ({ request }) => {
      await simDelay(150);
      const url = new URL(request.url);
      if (!request.headers.get("user-agent")) return fail(1020, "Invalid request or unable to validate request.");
      const code = url.searchParams.get("q") ?? "";
      const ref = /^\d{10}$/.test(code) ? recall<Reference>("ref", code) : undefined;
      if (!ref || ref.token !== url.searchParams.get("t")) return fail(1017, "Reference code is invalid.");
      remember("ref", code, { ...ref, polls: ref.polls + 1 });
      if (ref.polls < PENDING_POLLS) return fail(1019, "Statement generation in progress. Please try again shortly.");
      const state = tokenState(ref.token);
      remember("token", ref.token, { ...state, served: state.served + 1 });
      return xml(demoStatement(ref.account, ref.from, ref.to));
    }),
  ];
}
