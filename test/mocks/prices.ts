import crypto from "node:crypto";
import { http, HttpResponse } from "msw";
import { DEMO_DEFILLAMA_URL, DEMO_YAHOO_URL } from "../../app/sources/prices.server";
import { mulberry32 } from "./random";
import { simDelay, simDelayFactor } from "./sim-delay";
import { l2TokenAddress } from "./wallet-sim";

/**
 * A simulator of the two price providers (Yahoo's chart API, DefiLlama's coins API) for demo mode
 * and tests, in their shapes. Prices are plausible for the instrument and the day: a seeded
 * geometric random walk bridged between a table of real approximate levels (1 January of each
 * year, plus a few turning points), the same for a day whatever range is asked. Stocks split as
 * they really did: Yahoo's `close` is split-adjusted to today, `adjclose` also for dividends, and
 * `events.splits` lists the splits, so an as-traded NVDA is about $1,200 in May 2024 and $120 after
 * 10 June 2024. Levels after the table's last row (mid-2025; November 2025 for BTC, ETH and the
 * wallet demos' tokens, which trade May to October 2025) wander around it.
 *
 * Like the real services it answers after a small delay (scaled by SIM_DELAY_FACTOR), now and then
 * with HTTP 429 and a Retry-After (every RATE_LIMIT_EVERY-th request per provider), Yahoo with a
 * "Not Found" chart for an impossible ticker, DefiLlama with HTTP 400 beyond 500 points and
 * without the coins it cannot price (an unknown coingecko slug). DefiLlama's answers carry its
 * `confidence` per coin: 0.99 (as for its CoinGecko-sourced prices), THIN_CONFIDENCE for a thin
 * token (see coinConfidence).
 */
export const RATE_LIMIT_EVERY = 7;

type Profile = {
  /** [day, price in today's units (split-adjusted)], ascending. */
  anchors: Array<[string, number]>;
  /** Volatility of the log price per trading day (the walk steps by calendar day: × √(252/365)). */
  vol: number;
  /** [first split-adjusted day, numerator, denominator] (NVDA 10:1 → 10, 1). */
  splits?: Array<[string, number, number]>;
  /** Yearly dividend yield, paid quarterly. */
  dividendYield?: number;
  name: string;
  type?: "EQUITY" | "ETF" | "INDEX";
};

// Approximate real levels in today's shares (1 January unless dated otherwise).
const y = (levels: Record<string, number>): Array<[string, number]> =>
  Object.entries(levels)
    .map(([k, v]) => [k.length === 4 ? `${k}-01-02` : k, v] as [string, number])
    .sort(([a], [b]) => a.localeCompare(b));

const STOCKS: Record<string, Profile> = {
  // The 13-week Treasury bill's yield in percent (Yahoo's ^IRX: the risk-free rate of the grade),
  // at its real approximate levels: near zero through 2021, up with the Fed through 2022, 5.2–5.3 %
  // from mid-2023 to mid-2024, down with the cuts to about 4 % late in 2025.
  "^IRX": {
    name: "13 WEEK TREASURY BILL",
    type: "INDEX",
    vol: 0.003,
    anchors: y({
      2015: 0.03,
      2016: 0.2,
      2017: 0.5,
      2018: 1.35,
      2019: 2.35,
      2020: 1.52,
      "2020-03-20": 0.05,
      2021: 0.07,
      "2021-06-01": 0.02,
      2022: 0.05,
      "2022-03-16": 0.4,
      "2022-06-15": 1.5,
      "2022-09-21": 3.2,
      "2022-12-14": 4.2,
      2023: 4.3,
      "2023-07-26": 5.25,
      2024: 5.2,
      "2024-07-01": 5.2,
      "2024-09-18": 4.7,
      "2024-12-18": 4.3,
      2025: 4.3,
      "2025-07-01": 4.25,
      "2025-09-17": 4.0,
      "2025-12-01": 3.85,
    }),
  },
  SPY: {
    name: "SPDR S&P 500 ETF Trust",
    type: "ETF",
    vol: 0.011,
    dividendYield: 0.013,
    anchors: y({
      2015: 206,
      2016: 204,
      2017: 224,
      2018: 268,
      2019: 250,
      2020: 322,
      "2020-03-23": 222,
      2021: 373,
      2022: 476,
      "2022-10-12": 357,
      2023: 383,
      2024: 472,
      2025: 587,
      "2025-04-08": 496,
      "2025-07-01": 617,
    }),
  },
  QQQ: {
    name: "Invesco QQQ Trust",
    type: "ETF",
    vol: 0.014,
    dividendYield: 0.006,
    anchors: y({
      2015: 103,
      2016: 112,
      2017: 119,
      2018: 156,
      2019: 154,
      2020: 212,
      2021: 313,
      2022: 398,
      2023: 266,
      2024: 409,
      2025: 511,
      "2025-04-08": 423,
      "2025-07-01": 550,
    }),
  },
  AAPL: {
    name: "Apple Inc.",
    vol: 0.017,
    dividendYield: 0.005,
    splits: [
      ["2014-06-09", 7, 1],
      ["2020-08-31", 4, 1],
    ],
    anchors: y({
      2015: 27.6,
      2016: 26.3,
      2017: 29,
      2018: 42.3,
      2019: 39.5,
      2020: 74.4,
      2021: 132.7,
      2022: 177.6,
      2023: 129.9,
      2024: 192.5,
      2025: 250,
      "2025-07-01": 205,
    }),
  },
  MSFT: {
    name: "Microsoft Corporation",
    vol: 0.016,
    dividendYield: 0.008,
    anchors: y({
      2015: 46.5,
      2016: 55.5,
      2017: 62,
      2018: 85.5,
      2019: 101.6,
      2020: 157.7,
      2021: 222.4,
      2022: 336.3,
      2023: 239.8,
      2024: 376,
      2025: 421.5,
      "2025-07-01": 495,
    }),
  },
  NVDA: {
    name: "NVIDIA Corporation",
    vol: 0.03,
    splits: [
      ["2021-07-20", 4, 1],
      ["2024-06-10", 10, 1],
    ],
    anchors: y({
      2015: 0.5,
      2016: 0.83,
      2017: 2.67,
      2018: 4.84,
      2019: 3.34,
      2020: 5.9,
      2021: 13.05,
      "2021-07-19": 18.8,
      2022: 29.4,
      2023: 14.6,
      2024: 49.5,
      "2024-03-01": 82.2,
      "2024-05-01": 83,
      "2024-06-07": 120.9,
      2025: 134.3,
      "2025-04-07": 97,
      "2025-07-01": 157,
    }),
  },
  TSLA: {
    name: "Tesla, Inc.",
    vol: 0.035,
    splits: [
      ["2020-08-31", 5, 1],
      ["2022-08-25", 3, 1],
    ],
    anchors: y({
      2015: 14.8,
      2016: 16,
      2017: 14.3,
      2018: 20.7,
      2019: 22.1,
      2020: 27.9,
      "2020-08-28": 147.5,
      2021: 235,
      2022: 400,
      "2022-08-24": 297,
      2023: 123,
      2024: 248,
      "2024-04-22": 142,
      "2024-11-04": 242,
      "2024-12-17": 480,
      2025: 404,
      "2025-07-01": 317,
    }),
  },
  AMZN: {
    name: "Amazon.com, Inc.",
    vol: 0.02,
    splits: [["2022-06-06", 20, 1]],
    anchors: y({
      2015: 15.5,
      2016: 33.8,
      2017: 37.5,
      2018: 58.5,
      2019: 75,
      2020: 92.4,
      2021: 162.8,
      2022: 166.7,
      "2022-06-03": 122.4,
      2023: 84,
      2024: 152,
      2025: 219,
      "2025-07-01": 220,
    }),
  },
  GOOGL: {
    name: "Alphabet Inc.",
    vol: 0.018,
    splits: [["2022-07-18", 20, 1]],
    anchors: y({
      2015: 26.5,
      2016: 38.9,
      2017: 39.6,
      2018: 52.7,
      2019: 52.2,
      2020: 66.9,
      2021: 87.6,
      2022: 144.9,
      "2022-07-15": 111.8,
      2023: 88.2,
      2024: 139.7,
      2025: 189.3,
      "2025-07-01": 176,
    }),
  },
  META: {
    name: "Meta Platforms, Inc.",
    vol: 0.024,
    anchors: y({
      2015: 78,
      2016: 104.7,
      2017: 115,
      2018: 176.5,
      2019: 131,
      2020: 205,
      2021: 273,
      2022: 336,
      "2022-11-03": 89,
      2023: 120,
      2024: 354,
      2025: 585,
      "2025-07-01": 738,
    }),
  },
  AMD: {
    name: "Advanced Micro Devices, Inc.",
    vol: 0.03,
    anchors: y({
      2015: 2.67,
      2016: 2.87,
      2017: 11.34,
      2018: 10.28,
      2019: 18.46,
      2020: 45.86,
      2021: 91.71,
      2022: 143.9,
      2023: 64.8,
      "2024-03-07": 211,
      2024: 147.4,
      2025: 120.8,
      "2025-07-01": 142,
    }),
  },
  AVGO: {
    name: "Broadcom Inc.",
    vol: 0.022,
    dividendYield: 0.015,
    splits: [["2024-07-15", 10, 1]],
    anchors: y({
      2015: 10,
      2016: 14.5,
      2017: 17.7,
      2018: 25.7,
      2019: 25.4,
      2020: 31.6,
      2021: 43.8,
      2022: 66.5,
      2023: 55.9,
      2024: 111.6,
      "2024-07-12": 170,
      2025: 231.8,
      "2025-07-01": 275,
    }),
  },
  WMT: {
    name: "Walmart Inc.",
    vol: 0.012,
    dividendYield: 0.014,
    splits: [["2024-02-26", 3, 1]],
    anchors: y({
      2015: 28.7,
      2016: 20.4,
      2017: 23,
      2018: 32.9,
      2019: 31,
      2020: 39.6,
      2021: 48,
      2022: 48.2,
      2023: 47.3,
      2024: 52.5,
      "2024-02-23": 58.5,
      2025: 90.4,
      "2025-07-01": 97,
    }),
  },
  // The other tickers of the Plaid demo broker (test/mocks/plaid-data.ts), coarser.
  NFLX: {
    name: "Netflix, Inc.",
    vol: 0.025,
    splits: [["2025-11-17", 10, 1]],
    anchors: y({
      2020: 32.9,
      2022: 60.2,
      "2022-05-11": 17.4,
      2023: 29.5,
      2024: 48.7,
      2025: 89,
      "2025-07-01": 130,
    }),
  },
  // Honeywell's as-traded close drops on 30 October 2025, when one Solstice share per four HON is
  // spun off (Yahoo adjusts closes for splits, not for spin-offs); the demo broker trades both.
  HON: {
    name: "Honeywell International Inc.",
    vol: 0.013,
    dividendYield: 0.02,
    anchors: y({ 2024: 225, 2025: 226, "2025-05-05": 211.3, "2025-10-29": 211, "2025-10-30": 199, 2026: 197 }),
  },
  SOLS: {
    name: "Solstice Advanced Materials Inc.",
    vol: 0.02,
    anchors: y({ "2025-10-30": 49.5, "2025-12-15": 48.9, 2026: 50 }),
  },
  JPM: {
    name: "JPMorgan Chase & Co.",
    vol: 0.015,
    dividendYield: 0.022,
    anchors: y({ 2020: 139, 2022: 158, 2023: 134, 2024: 170, 2025: 240, "2025-07-01": 290 }),
  },
  XOM: {
    name: "Exxon Mobil Corporation",
    vol: 0.016,
    dividendYield: 0.035,
    anchors: y({ 2020: 70, 2021: 41, 2022: 61, 2023: 110, 2024: 100, 2025: 107, "2025-07-01": 108 }),
  },
  DIS: {
    name: "The Walt Disney Company",
    vol: 0.018,
    anchors: y({ 2020: 145, 2021: 181, 2022: 155, 2023: 87, 2024: 90, 2025: 111, "2025-07-01": 124 }),
  },
  PYPL: {
    name: "PayPal Holdings, Inc.",
    vol: 0.024,
    anchors: y({ 2020: 108, 2021: 234, 2022: 189, 2023: 71, 2024: 61, 2025: 85, "2025-07-01": 74 }),
  },
  INTC: {
    name: "Intel Corporation",
    vol: 0.024,
    anchors: y({ 2020: 60, 2021: 50, 2022: 51.5, 2023: 26.4, 2024: 50, 2025: 20, "2025-07-01": 22 }),
  },
  BA: {
    name: "The Boeing Company",
    vol: 0.022,
    anchors: y({ 2020: 326, 2021: 214, 2022: 201, 2023: 190, 2024: 260, 2025: 177, "2025-07-01": 210 }),
  },
  COIN: {
    name: "Coinbase Global, Inc.",
    vol: 0.045,
    anchors: y({ "2021-04-14": 328, 2022: 252, 2023: 35, 2024: 174, 2025: 248, "2025-07-01": 350 }),
  },
  SHOP: {
    name: "Shopify Inc.",
    vol: 0.03,
    splits: [["2022-06-29", 10, 1]],
    anchors: y({ 2020: 40, 2021: 113, 2022: 138, 2023: 35, 2024: 78, 2025: 106, "2025-07-01": 115 }),
  },
  KO: {
    name: "The Coca-Cola Company",
    vol: 0.009,
    dividendYield: 0.03,
    anchors: y({ 2020: 55, 2021: 54.8, 2022: 59, 2023: 63.6, 2024: 59, 2025: 62, "2025-07-01": 71 }),
  },
};

// DefiLlama ids → profiles. Wrapped coins share their coin's walk.
const BTC: Profile = {
  name: "BTC",
  vol: 0.032,
  anchors: y({
    2015: 314,
    2016: 430,
    2017: 998,
    "2017-12-17": 19_100,
    2018: 13_500,
    2019: 3_700,
    2020: 7_200,
    "2020-03-13": 4_900,
    2021: 29_000,
    "2021-04-14": 63_500,
    "2021-07-20": 29_800,
    "2021-11-10": 67_000,
    2022: 46_300,
    "2022-06-18": 19_000,
    2023: 16_600,
    2024: 42_300,
    "2024-03-14": 73_000,
    2025: 93_400,
    "2025-07-01": 107_000,
    "2025-08-14": 123_000,
    "2025-10-06": 124_000,
    "2025-11-01": 110_000,
  }),
};
const ETH: Profile = {
  name: "ETH",
  vol: 0.04,
  anchors: y({
    "2016-01-02": 0.95,
    2017: 8.2,
    2018: 757,
    2019: 140,
    2020: 130,
    2021: 737,
    "2021-05-12": 4_170,
    "2021-11-10": 4_800,
    2022: 3_700,
    "2022-06-18": 1_000,
    2023: 1_200,
    2024: 2_280,
    "2024-03-12": 4_000,
    2025: 3_330,
    "2025-04-08": 1_500,
    "2025-07-01": 2_500,
    "2025-08-24": 4_800,
    "2025-10-01": 4_150,
    "2025-11-01": 3_850,
  }),
};
const SOL: Profile = {
  name: "SOL",
  vol: 0.05,
  anchors: y({
    "2020-04-11": 0.95,
    2021: 1.5,
    "2021-11-06": 258,
    2022: 170,
    "2022-11-09": 16,
    2023: 10,
    2024: 101,
    2025: 189,
    "2025-04-08": 105,
    "2025-07-01": 150,
    "2025-09-18": 245,
    "2025-11-01": 185,
  }),
};
const BNB: Profile = {
  name: "BNB",
  vol: 0.035,
  anchors: y({
    2021: 37,
    "2021-05-10": 675,
    2022: 510,
    2023: 246,
    2024: 313,
    2025: 700,
    "2025-06-01": 660,
    "2025-10-13": 1300,
    "2025-12-01": 880,
    2026: 860,
  }),
};
const flatStable = (name: string): Profile => ({ name, vol: 0.0004, anchors: [["2015-01-02", 1]] });
const COINS: Record<string, Profile> = {
  "coingecko:bitcoin": BTC,
  "coingecko:ethereum": ETH,
  "coingecko:solana": SOL,
  // BNB: Binance's fee coin (test/mocks/binance.ts) and BNB Chain's native coin.
  "coingecko:binancecoin": BNB,
  "ethereum:0x2260fac5e5542a773aa44fbcfedf7c193bc2c599": BTC, // WBTC
  "ethereum:0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2": ETH, // WETH
  "solana:So11111111111111111111111111111111111111112": SOL, // wSOL
  "coingecko:usd-coin": flatStable("USDC"),
  "coingecko:tether": flatStable("USDT"),
  "coingecko:dai": flatStable("DAI"),
  "ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48": flatStable("USDC"),
  "ethereum:0xdac17f958d2ee523a2206206994597c13d831ec7": flatStable("USDT"),
  "ethereum:0x6b175474e89094c44da98b954eedeac495271d0f": flatStable("DAI"),
  "solana:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v": flatStable("USDC"),
  "solana:Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB": flatStable("USDT"),
  "ethereum:0x514910771af9ca656af840dff83e8264ecf986ca": {
    name: "LINK",
    vol: 0.045,
    anchors: y({
      2021: 11.5,
      2022: 20,
      2023: 5.6,
      2024: 15,
      2025: 20,
      "2025-04-08": 11,
      "2025-07-01": 13.5,
      "2025-08-22": 26,
      "2025-11-01": 17.5,
    }),
  },
  "ethereum:0x1f9840a85d5af5bf1d1762f925bdaddc4201f984": {
    name: "UNI",
    vol: 0.05,
    anchors: y({
      2021: 5,
      2022: 17,
      2023: 5.2,
      2024: 6.3,
      2025: 13,
      "2025-04-08": 5,
      "2025-07-01": 7.5,
      "2025-08-22": 11,
      "2025-11-01": 6.2,
    }),
  },
  "ethereum:0x7fc66500c84a76ad7e9c93437bfc5ac33e2ddaa9": {
    name: "AAVE",
    vol: 0.05,
    anchors: y({
      2021: 88,
      2022: 265,
      2023: 52,
      2024: 106,
      2025: 310,
      "2025-04-08": 135,
      "2025-07-01": 250,
      "2025-08-22": 350,
      "2025-11-01": 225,
    }),
  },
  "ethereum:0x6982508145454ce325ddbe47a25d4ec3d2311933": {
    name: "PEPE",
    vol: 0.07,
    anchors: y({
      "2023-04-20": 0.0000001,
      2024: 0.0000014,
      2025: 0.000019,
      "2025-04-08": 0.0000066,
      "2025-07-01": 0.00001,
      "2025-08-13": 0.000013,
      "2025-11-01": 0.0000066,
    }),
  },
  // The Solana simulator's tokens (test/mocks/solana.ts): JUP, BONK, RAY, WIF.
  "solana:JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN": {
    name: "JUP",
    vol: 0.06,
    anchors: y({ "2024-01-31": 0.55, 2025: 0.82, "2025-04-08": 0.35, "2025-07-01": 0.45, "2025-11-01": 0.35 }),
  },
  "solana:DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263": {
    name: "BONK",
    vol: 0.07,
    anchors: y({
      "2023-01-05": 0.0000003,
      2024: 0.000013,
      2025: 0.00003,
      "2025-04-08": 0.00001,
      "2025-07-01": 0.000016,
      "2025-07-20": 0.000036,
      "2025-11-01": 0.000014,
    }),
  },
  "solana:4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R": {
    name: "RAY",
    vol: 0.06,
    anchors: y({
      2022: 3.5,
      2023: 0.17,
      2024: 0.25,
      2025: 5,
      "2025-04-08": 1.6,
      "2025-07-01": 2.1,
      "2025-09-15": 3.3,
      "2025-11-01": 1.8,
    }),
  },
  "solana:EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm": {
    name: "WIF",
    vol: 0.08,
    anchors: y({
      "2023-12-20": 0.05,
      2024: 0.2,
      2025: 1.9,
      "2025-04-08": 0.33,
      "2025-07-01": 0.85,
      "2025-07-22": 1.3,
      "2025-11-01": 0.5,
    }),
  },
};
// The EVM simulator's copies of LINK, UNI, PEPE and AAVE on Base and Arbitrum (made-up contracts):
// priced as the Ethereum token, as DefiLlama prices a bridged token, so a wallet holding one asset
// on several chains is valued with one series.
for (const [chainId, chain] of [
  [8453, "base"],
  [42161, "arbitrum"],
] as const)
  for (const [symbol, address] of Object.entries({
    LINK: "0x514910771af9ca656af840dff83e8264ecf986ca",
    UNI: "0x1f9840a85d5af5bf1d1762f925bdaddc4201f984",
    PEPE: "0x6982508145454ce325ddbe47a25d4ec3d2311933",
    AAVE: "0x7fc66500c84a76ad7e9c93437bfc5ac33e2ddaa9",
  }))
    COINS[`${chain}:${l2TokenAddress(chainId, symbol)}`] = COINS[`ethereum:${address}`]!;

const DAY = 86_400_000;
const dayNum = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY);
const dayStr = (n: number) => new Date(n * DAY).toISOString().slice(0, 10);

function seed(...parts: string[]): number {
  return crypto.createHash("sha256").update(parts.join("|")).digest().readUInt32LE(0);
}

/** A profile for a ticker or token we have no table for: a level between $5 and $300 from its name. */
function defaultProfile(key: string, kind: "stock" | "coin"): Profile {
  const r = mulberry32(seed("default", key));
  const level = kind === "stock" ? 5 * Math.exp(r() * Math.log(60)) : 0.01 * Math.exp(r() * Math.log(5000));
  return {
    name: key,
    vol: kind === "stock" ? 0.02 : 0.05,
    anchors: [
      ["2020-01-02", level],
      ["2023-01-02", level * (0.6 + r())],
      ["2025-07-01", level * (0.6 + r() * 1.2)],
    ],
  };
}

const walks = new Map<string, Float64Array>();
const CALENDAR = Math.sqrt(252 / 365);
// The walk's distance from the line between two anchors decays with a half-life of about a month
// (an Ornstein–Uhlenbeck bridge): real daily moves, but no drift far from the real path.
const REVERSION = Math.LN2 / 30;
/**
 * Log price on day number `n` (today's units): between two anchors a bridge (a seeded mean-reverting
 * walk pulled to both ends), so every day's value is fixed whatever range is asked. Before the first
 * anchor and after the last one, bridges of a year from the level to itself.
 */
function logLevel(key: string, p: Profile, n: number): number {
  const a = p.anchors.map(([d, v]) => [dayNum(d), Math.log(v)] as const);
  let from: readonly [number, number];
  let to: readonly [number, number];
  let segment: string;
  if (n < a[0]![0]) {
    const j = Math.ceil((a[0]![0] - n) / 365);
    from = [a[0]![0] - 365 * j, a[0]![1]];
    to = [a[0]![0] - 365 * (j - 1), a[0]![1]];
    segment = `before${j}`;
  } else if (n >= a.at(-1)![0]) {
    const j = Math.floor((n - a.at(-1)![0]) / 365);
    from = [a.at(-1)![0] + 365 * j, a.at(-1)![1]];
    to = [a.at(-1)![0] + 365 * (j + 1), a.at(-1)![1]];
    segment = `after${j}`;
  } else {
    let i = 0;
    while (a[i + 1]![0] <= n) i++;
    from = a[i]!;
    to = a[i + 1]!;
    segment = `s${i}`;
  }
  const len = to[0] - from[0];
  const cacheKey = `${key}:${segment}`;
  let walk = walks.get(cacheKey);
  if (!walk) {
    const r = mulberry32(seed(key, segment));
    walk = new Float64Array(len + 1);
    for (let k = 1; k <= len; k++) {
      // Box–Muller: one standard normal step.
      const z = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
      walk[k] = walk[k - 1]! * (1 - REVERSION) + z * p.vol * CALENDAR;
    }
    const end = walk[len]!;
    for (let k = 0; k <= len; k++) walk[k] = walk[k]! - (k / len) * end;
    walks.set(cacheKey, walk);
  }
  const k = n - from[0];
  return from[1] + (k / len) * (to[1] - from[1]) + walk[k]!;
}

// ---------------------------------------------------------------------------------------------
// Stocks

function stockProfile(symbol: string): Profile {
  return STOCKS[symbol] ?? defaultProfile(symbol, "stock");
}

/** US market holidays (the regular ones; good enough for a simulator). */
function isHoliday(n: number): boolean {
  const d = new Date(n * DAY);
  const [yr, m, date, wd] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCDay()];
  const nth = (k: number) => Math.ceil(date / 7) === k;
  const observed = (mm: number, dd: number) => {
    const fixed = new Date(Date.UTC(yr, mm - 1, dd)).getUTCDay();
    const obs = fixed === 6 ? dd - 1 : fixed === 0 ? dd + 1 : dd;
    return m === mm && date === obs;
  };
  if (observed(1, 1) || observed(7, 4) || observed(12, 25) || (yr >= 2022 && observed(6, 19))) return true;
  if (wd === 1 && ((m === 1 && nth(3)) || (m === 2 && nth(3)) || (m === 9 && nth(1)) || (m === 5 && date + 7 > 31)))
    return true;
  return wd === 4 && m === 11 && nth(4);
}
export function isTradingDay(day: string): boolean {
  const n = dayNum(day);
  const wd = new Date(n * DAY).getUTCDay();
  return wd !== 0 && wd !== 6 && !isHoliday(n);
}

function splitFactorAfter(p: Profile, day: string, until = "9999-12-31"): number {
  let f = 1;
  for (const [d, num, den] of p.splits ?? []) if (d > day && d <= until) f *= num / den;
  return f;
}

/** The simulated close of `symbol` on `day` as traded then (never split-adjusted). */
export function simulatedAsTraded(symbol: string, day: string): number {
  const p = stockProfile(symbol);
  return round(Math.exp(logLevel(`stock:${symbol}`, p, dayNum(day))) * splitFactorAfter(p, day), 4);
}

function round(x: number, digits: number) {
  const f = 10 ** Math.max(0, digits - Math.floor(Math.log10(Math.abs(x) || 1)));
  return Math.round(x * f) / f;
}

/** Ex-dividend days: the third Friday of March, June, September and December (next trading day if closed). */
function exDividendDays(fromN: number, toN: number): number[] {
  const out: number[] = [];
  for (let yr = new Date(fromN * DAY).getUTCFullYear(); yr <= new Date(toN * DAY).getUTCFullYear(); yr++) {
    for (const m of [2, 5, 8, 11]) {
      const first = new Date(Date.UTC(yr, m, 1)).getUTCDay();
      let n = Math.round(Date.UTC(yr, m, 1 + ((5 - first + 7) % 7) + 14) / DAY);
      while (!isTradingDay(dayStr(n))) n++;
      if (n >= fromN && n <= toN) out.push(n);
    }
  }
  return out;
}

const nyOffsetFormat = new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", timeZoneName: "shortOffset" });
function nyOffsetSeconds(ms: number): number {
  const part = nyOffsetFormat.formatToParts(new Date(ms)).find((x) => x.type === "timeZoneName")?.value ?? "GMT-5";
  return Number(/GMT([+-]\d+)/.exec(part)?.[1] ?? -5) * 3600;
}
/** Unix seconds of 09:30 New York on a day (Yahoo stamps daily bars with the session's open). */
function openTs(n: number): number {
  return n * 86_400 + 9.5 * 3600 - nyOffsetSeconds(n * DAY + 12 * 3_600_000);
}

export function yahooChart(symbol: string, period1: number, period2: number, events: string) {
  const p = stockProfile(symbol);
  const now = Date.now();
  const today = dayStr(Math.floor(now / DAY));
  const fromN = Math.max(Math.floor(period1 / 86_400), dayNum("1990-01-02"));
  const toN = Math.min(Math.floor(period2 / 86_400), Math.floor(now / DAY));
  const timestamp: number[] = [];
  const close: number[] = [];
  const open: number[] = [];
  const high: number[] = [];
  const low: number[] = [];
  const volume: number[] = [];
  const days: number[] = [];
  const r = mulberry32(seed("ohlv", symbol, String(fromN)));
  for (let n = fromN; n <= toN; n++) {
    const ts = openTs(n);
    if (ts < period1 || ts >= period2 || ts * 1000 > now || !isTradingDay(dayStr(n))) continue;
    // Yahoo's close: as traded ÷ the splits since then up to today, i.e. in today's shares.
    const c = round(simulatedAsTraded(symbol, dayStr(n)) / splitFactorAfter(p, dayStr(n), today), 6);
    const o = round(c * (1 + (r() - 0.5) * 0.02), 6);
    timestamp.push(ts);
    days.push(n);
    close.push(c);
    open.push(o);
    high.push(round(Math.max(o, c) * (1 + r() * 0.012), 6));
    low.push(round(Math.min(o, c) * (1 - r() * 0.012), 6));
    volume.push(Math.round(2e6 + r() * 5e7));
  }
  // Dividends from the first bar to today; adjclose = close × Π (1 − dividend ÷ previous close) after it.
  const exDays = p.dividendYield && days.length ? exDividendDays(days[0]!, Math.floor(now / DAY)) : [];
  const q = (p.dividendYield ?? 0) / 4;
  const adjclose = days.map((n, i) => round(close[i]! * (1 - q) ** exDays.filter((e) => e > n).length, 6));
  const ev: Record<string, unknown> = {};
  if (/div/.test(events) && exDays.length) {
    const dividends: Record<string, { amount: number; date: number }> = {};
    for (const e of exDays) {
      const ts = openTs(e);
      if (ts < period1 || ts >= period2) continue;
      const prev = dayStr(e - 1);
      dividends[String(ts)] = {
        amount: round((q * simulatedAsTraded(symbol, prev)) / splitFactorAfter(p, prev, today), 4),
        date: ts,
      };
    }
    if (Object.keys(dividends).length) ev.dividends = dividends;
  }
  if (/split/.test(events)) {
    const splits: Record<string, unknown> = {};
    for (const [d, numerator, denominator] of p.splits ?? []) {
      const ts = openTs(dayNum(d));
      if (ts >= period1 && ts < period2 && ts * 1000 <= now)
        splits[String(ts)] = { date: ts, numerator, denominator, splitRatio: `${numerator}:${denominator}` };
    }
    if (Object.keys(splits).length) ev.splits = splits;
  }
  const last = close.at(-1) ?? null;
  return {
    chart: {
      result: [
        {
          meta: {
            currency: "USD",
            symbol,
            exchangeName: p.type === "ETF" ? "PCX" : "NMS",
            fullExchangeName: p.type === "ETF" ? "NYSEArca" : "NasdaqGS",
            instrumentType: p.type ?? "EQUITY",
            firstTradeDate: openTs(dayNum("1990-01-02")),
            regularMarketTime: timestamp.at(-1) ?? null,
            hasPrePostMarketData: true,
            gmtoffset: nyOffsetSeconds(now),
            timezone: nyOffsetSeconds(now) === -14400 ? "EDT" : "EST",
            exchangeTimezoneName: "America/New_York",
            regularMarketPrice: last,
            longName: p.name,
            chartPreviousClose: close[0] ?? null,
            priceHint: 2,
            dataGranularity: "1d",
            range: "",
          },
          timestamp,
          ...(Object.keys(ev).length ? { events: ev } : {}),
          indicators: { quote: [{ open, high, low, close, volume }], adjclose: [{ adjclose }] },
        },
      ],
      error: null,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Coins

function coinProfile(id: string): Profile | null {
  if (COINS[id]) return COINS[id];
  // Token addresses of any chain get a made-up but stable price; unknown CoinGecko slugs are unpriced,
  // and so is an unlisted token (an EVM contract beginning 0xdead, a Solana mint beginning dead):
  // DefiLlama answers without it, as for a token only its creator trades.
  if (UNLISTED.test(id)) return null;
  if (/^[a-z0-9-]+:(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/.test(id) && !id.startsWith("coingecko:"))
    return defaultProfile(id, "coin");
  return null;
}

/** A token DefiLlama lists nowhere: a contract beginning 0xdead, a mint beginning dead. */
const UNLISTED = /^[a-z0-9-]+:(0x)?dead/;

/** DefiLlama's confidence in a thin token's price: below the engine's 0.8, above DefiLlama's own floor of 0.3. */
export const THIN_CONFIDENCE = 0.5;

/**
 * The confidence DefiLlama gives an id's prices (../shared/PROVIDERS.md §16): 0.99 for the coins and
 * tokens of the table and any other token, THIN_CONFIDENCE for a thin token, one priced from a
 * shallow pool: an EVM contract beginning `0xbad` (`ethereum:0xbad…`) or a Solana mint beginning
 * `bad` (`solana:bad…`), made up by a test or a demo that wants one.
 */
export function coinConfidence(id: string): number {
  return !COINS[id] && /^[a-z0-9-]+:(0x)?bad/.test(id) ? THIN_CONFIDENCE : 0.99;
}

/** The simulated USD price of a DefiLlama id at an instant (log-linear between daily values). */
export function simulatedCoinPrice(id: string, time: Date): number | null {
  const p = coinProfile(id);
  if (!p) return null;
  const x = time.getTime() / DAY;
  const n = Math.floor(x);
  const key = `coin:${p.name}:${COINS[id] ? "" : id}`;
  const l = logLevel(key, p, n) + (x - n) * (logLevel(key, p, n + 1) - logLevel(key, p, n));
  return round(Math.exp(l), 8);
}

function parsePeriod(s: string | null): number | null {
  const m = /^(\d+)([wdhm])$/i.exec(s ?? "1d");
  if (!m) return null;
  return Number(m[1]) * { w: 604_800, d: 86_400, h: 3_600, m: 60 }[m[2]!.toLowerCase() as "w" | "d" | "h" | "m"];
}

function chart(ids: string[], start: number, span: number, period: number) {
  const coins: Record<string, unknown> = {};
  for (const id of ids) {
    const p = coinProfile(id);
    if (!p) continue;
    const prices: Array<{ timestamp: number; price: number }> = [];
    const r = mulberry32(seed("jitter", id, String(start)));
    for (let k = 0; k < span; k++) {
      // Real points sit near each requested instant, not on it.
      const ts = start + k * period + Math.round((r() - 0.5) * 600);
      if (ts * 1000 > Date.now()) break;
      prices.push({ timestamp: ts, price: simulatedCoinPrice(id, new Date(ts * 1000))! });
    }
    coins[id] = {
      symbol: p.name,
      confidence: coinConfidence(id),
      decimals: id.startsWith("coingecko:") ? undefined : 18,
      prices,
    };
  }
  return { coins };
}

// ---------------------------------------------------------------------------------------------
// Handlers

const requests = { yahoo: 0, defillama: 0 };
const forced = { yahoo: 0, defillama: 0 };

/** Tests: the next `count` requests to `provider` answer HTTP 429. */
export function rateLimitNext(provider: keyof typeof requests, count = 1) {
  forced[provider] += count;
}

async function throttle(provider: keyof typeof requests) {
  const n = ++requests[provider];
  await simDelay(60 + (n % 5) * 40);
  const force = forced[provider] > 0;
  if (force) forced[provider]--;
  if (force || n % RATE_LIMIT_EVERY === 0) {
    return provider === "yahoo"
      ? new HttpResponse("Too Many Requests\r\n", {
          status: 429,
          headers: { "content-type": "text/plain", "retry-after": String(Math.ceil(simDelayFactor())) },
        })
      : HttpResponse.json(
          { message: "Too many requests" },
          { status: 429, headers: { "retry-after": String(Math.ceil(simDelayFactor())) } },
        );
  }
  return null;
}

export function priceHandlers() {
  return [
    http.get(`${DEMO_YAHOO_URL}/v8/finance/chart/:symbol`, async ({ request, params }) => {
      const limited = await throttle("yahoo");
      if (limited) return limited;
      const q = new URL(request.url).searchParams;
      const symbol = decodeURIComponent(String(params.symbol)).toUpperCase();
      const period1 = Number(q.get("period1"));
      const period2 = Number(q.get("period2"));
      if (q.get("interval") !== "1d" || !Number.isFinite(period1) || !Number.isFinite(period2) || period2 <= period1) {
        return HttpResponse.json(
          {
            chart: {
              result: null,
              error: { code: "Bad Request", description: "Invalid input - interval=1d, period1 < period2 expected" },
            },
          },
          { status: 400 },
        );
      }
      if (!/^[A-Z0-9^=-]{1,12}$/.test(symbol) || symbol.includes("NOTREAL")) {
        return HttpResponse.json(
          {
            chart: { result: null, error: { code: "Not Found", description: "No data found, symbol may be delisted" } },
          },
          { status: 404 },
        );
      }
      return HttpResponse.json(yahooChart(symbol, period1, period2, q.get("events") ?? ""));
    }),
    http.get(`${DEMO_DEFILLAMA_URL}/chart/:coins`, async ({ request, params }) => {
      const limited = await throttle("defillama");
      if (limited) return limited;
      const q = new URL(request.url).searchParams;
      const ids = decodeURIComponent(String(params.coins)).split(",").filter(Boolean);
      const period = parsePeriod(q.get("period"));
      const span = Number(q.get("span") ?? "0") || 0;
      if (!period) return HttpResponse.json({ message: "invalid period" }, { status: 400 });
      if (span > 500)
        return HttpResponse.json(
          { message: `Requested ${span} data points exceeds the maximum of 500.` },
          { status: 400 },
        );
      const end = q.get("end") ? Number(q.get("end")) : null;
      const start = q.get("start")
        ? Number(q.get("start"))
        : end !== null
          ? end - Math.max(span - 1, 0) * period
          : Math.floor(Date.now() / 1000) - Math.max(span - 1, 0) * period;
      return HttpResponse.json(chart(ids, start, Math.max(span, 1), period));
    }),
    http.get(`${DEMO_DEFILLAMA_URL}/prices/historical/:ts/:coins`, async ({ params }) => {
      const limited = await throttle("defillama");
      if (limited) return limited;
      const ts = Number(params.ts);
      if (!Number.isFinite(ts)) return HttpResponse.json({ message: "invalid timestamp" }, { status: 400 });
      const coins: Record<string, unknown> = {};
      for (const id of decodeURIComponent(String(params.coins)).split(",").filter(Boolean)) {
        const price = ts * 1000 <= Date.now() ? simulatedCoinPrice(id, new Date(ts * 1000)) : null;
        if (price !== null)
          coins[id] = { symbol: coinProfile(id)!.name, price, timestamp: ts + 37, confidence: coinConfidence(id) };
      }
      return HttpResponse.json({ coins });
    }),
  ];
}
