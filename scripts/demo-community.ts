import { sql } from "kysely";
import { addDays, coinInstrumentForSymbol, nyCloseTime, type Day, type Instrument } from "../app/sources/prices.server";
import type { ImportedCashFlow, ImportedMark, ImportedTrade } from "../app/sources/imported";
import { dailyPrices, lastFinalDay } from "../app/server/grades/prices.server";
import { saveImport } from "../app/server/linking/imports.server";
import { gradeSeededDemoTrader } from "../app/server/grades/evaluation.server";
import { compactLeaderboardCounts } from "../app/server/community/market.server";
import { slugify } from "../app/server/community/clubs.server";
import { TIERS } from "../app/lib/vocabulary";
import { formatScore } from "../app/lib/format-number";
import type { DB } from "../app/server/platform/db.server";

// The demo community `npm start` seeds on an empty database (DECISIONS 104): a dozen traders, each
// with a trading history of their own style, stored as an import stores it (a linked account, its
// trades, deposits and today's marks, through saveImport), priced by the app's price source (the
// simulator in demo mode) at the day of each trade, and graded by the engine from that history
// (gradeSeededDemoTrader: marked demo, never in the public grade log). The randomness is seeded per
// trader, so a fresh install always gets the same community; posts, replies and likes are written
// from templates with each trader's own symbols and figures.

type Style = {
  username: string;
  first: string;
  last: string;
  bio: string;
  symbols: string[];
  /** Days of history before the last final day. */
  days: number;
  deposit: number;
  /** Added every ~30 days (0: none). */
  monthly: number;
  /** Chance of a trade on a given trading day. */
  activity: number;
  /** Share of cash put into one buy. */
  size: number;
  /** Days a position is meant to be held [min, max]. */
  hold: [number, number];
  /** Take profit / cut loss at these returns (null: only by holding time). */
  target: number | null;
  stop: number | null;
  /** Fee per trade in dollars. */
  fee: number;
  /** How often the trader picks, of their symbols, the one that does best over the next weeks (0–1). */
  skill: number;
  /** How the trader's style reads, for posts. */
  voice: "index" | "dividend" | "crypto" | "day" | "beginner" | "growth" | "swing" | "value";
};

const STYLES: Style[] = [
  {
    username: "maya_index_demo",
    skill: 0.55,
    first: "Maya",
    last: "Okafor",
    bio: "index",
    symbols: ["SPY", "QQQ"],
    days: 540,
    deposit: 20000,
    monthly: 1500,
    activity: 0.05,
    size: 0.9,
    hold: [400, 900],
    target: null,
    stop: null,
    fee: 0,
    voice: "index",
  },
  {
    username: "tom_dividends_demo",
    skill: 0.4,
    first: "Tom",
    last: "Lindqvist",
    bio: "dividend",
    symbols: ["KO", "JPM", "XOM", "WMT", "SPY"],
    days: 500,
    deposit: 40000,
    monthly: 800,
    activity: 0.06,
    size: 0.3,
    hold: [200, 600],
    target: 0.35,
    stop: null,
    fee: 0,
    voice: "dividend",
  },
  {
    username: "lena_swings_btc_demo",
    skill: 0.3,
    first: "Lena",
    last: "Vogel",
    bio: "crypto",
    symbols: ["BTC", "ETH", "SOL"],
    days: 420,
    deposit: 15000,
    monthly: 0,
    activity: 0.16,
    size: 0.35,
    hold: [5, 40],
    target: 0.18,
    stop: -0.1,
    fee: 4,
    voice: "crypto",
  },
  {
    username: "dex_daytrades_demo",
    skill: 0.05,
    first: "Dexter",
    last: "Hall",
    bio: "day",
    symbols: ["TSLA", "NVDA", "AMD", "COIN", "META"],
    days: 200,
    deposit: 25000,
    monthly: 0,
    activity: 0.85,
    size: 0.45,
    hold: [1, 3],
    target: 0.02,
    stop: -0.025,
    fee: 1,
    voice: "day",
  },
  {
    username: "sam_first_year_demo",
    skill: 0,
    first: "Sam",
    last: "Reyes",
    bio: "beginner",
    symbols: ["COIN", "SHOP", "TSLA", "PYPL"],
    days: 150,
    deposit: 3000,
    monthly: 250,
    activity: 0.07,
    size: 0.5,
    hold: [10, 60],
    target: 0.4,
    stop: -0.35,
    fee: 0,
    voice: "beginner",
  },
  {
    username: "priya_growth_demo",
    skill: 0.85,
    first: "Priya",
    last: "Raman",
    bio: "growth",
    symbols: ["NVDA", "MSFT", "AVGO", "AAPL", "GOOGL"],
    days: 520,
    deposit: 30000,
    monthly: 1000,
    activity: 0.05,
    size: 0.3,
    hold: [150, 500],
    target: 0.6,
    stop: -0.2,
    fee: 0,
    voice: "growth",
  },
  {
    username: "marco_momentum_demo",
    skill: 0.5,
    first: "Marco",
    last: "Bellini",
    bio: "swing",
    symbols: ["META", "NFLX", "AMZN", "AVGO", "AMD"],
    days: 360,
    deposit: 20000,
    monthly: 0,
    activity: 0.14,
    size: 0.25,
    hold: [8, 45],
    target: 0.12,
    stop: -0.07,
    fee: 1,
    voice: "swing",
  },
  {
    username: "ruth_value_demo",
    skill: 0.25,
    first: "Ruth",
    last: "Adeyemi",
    bio: "value",
    symbols: ["JPM", "XOM", "DIS", "BA", "KO"],
    days: 480,
    deposit: 35000,
    monthly: 0,
    activity: 0.05,
    size: 0.25,
    hold: [90, 400],
    target: 0.3,
    stop: -0.25,
    fee: 0,
    voice: "value",
  },
  {
    username: "kenji_eth_sol_demo",
    skill: 0.7,
    first: "Kenji",
    last: "Mori",
    bio: "crypto",
    symbols: ["ETH", "SOL"],
    days: 300,
    deposit: 8000,
    monthly: 400,
    activity: 0.08,
    size: 0.4,
    hold: [30, 200],
    target: 0.5,
    stop: -0.3,
    fee: 2,
    voice: "crypto",
  },
  {
    username: "ava_swing_demo",
    skill: 0.6,
    first: "Ava",
    last: "Kowalski",
    bio: "swing",
    symbols: ["GOOGL", "AMZN", "AAPL", "MSFT"],
    days: 330,
    deposit: 18000,
    monthly: 0,
    activity: 0.12,
    size: 0.3,
    hold: [6, 30],
    target: 0.08,
    stop: -0.05,
    fee: 0,
    voice: "swing",
  },
  {
    username: "omar_balanced_demo",
    skill: 0.45,
    first: "Omar",
    last: "Haddad",
    bio: "index",
    symbols: ["SPY", "AAPL", "BTC", "MSFT"],
    days: 450,
    deposit: 25000,
    monthly: 600,
    activity: 0.06,
    size: 0.3,
    hold: [100, 360],
    target: 0.4,
    stop: -0.2,
    fee: 0,
    voice: "index",
  },
  {
    username: "jules_bottom_fisher_demo",
    skill: 0.1,
    first: "Jules",
    last: "Martin",
    bio: "value",
    symbols: ["INTC", "PYPL", "BA", "DIS"],
    days: 380,
    deposit: 12000,
    monthly: 0,
    activity: 0.1,
    size: 0.35,
    hold: [20, 120],
    target: 0.15,
    stop: -0.3,
    fee: 1,
    voice: "value",
  },
];

/** mulberry32 (as test/mocks/random.ts): deterministic per trader. */
function rng(seedText: string): () => number {
  let a = 0;
  for (const c of seedText) a = (Math.imul(a, 31) + c.charCodeAt(0)) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const isCoin = (symbol: string) => coinInstrumentForSymbol(symbol) !== null;
const instrumentOf = (symbol: string): Instrument => coinInstrumentForSymbol(symbol) ?? `stock:${symbol}`;
/** When a day's price is known: the New York close for a stock, the end of the UTC day for a coin. */
const closeTime = (symbol: string, day: Day) => (isCoin(symbol) ? new Date(`${day}T23:59:00.000Z`) : nyCloseTime(day));

type Series = Map<string, Map<Day, number>>;

/** Daily prices of every symbol the community trades, from the app's price source (cached in price_history). */
export async function demoPriceSeries(now = Date.now()): Promise<{ series: Series; last: Day }> {
  const last = lastFinalDay(now);
  const first = addDays(last, -Math.max(...STYLES.map((s) => s.days)) - 5);
  const symbols = [...new Set(STYLES.flatMap((s) => s.symbols))];
  const series: Series = new Map();
  // Side by side: the provider's answers take most of the time, the cache's writes queue on the database.
  const rows = await Promise.all(symbols.map((symbol) => dailyPrices(instrumentOf(symbol), first, last)));
  for (const [i, symbol] of symbols.entries()) series.set(symbol, new Map(rows[i]!.map((r) => [r.day, r.price])));
  return { series, last };
}

type History = { trades: ImportedTrade[]; cashFlows: ImportedCashFlow[]; marks: ImportedMark[] };

/** One trader's history: a day-by-day walk of their style over the prices as they were. */
export function demoHistory(style: Style, series: Series, last: Day): History {
  const r = rng(style.username);
  const trades: ImportedTrade[] = [];
  const cashFlows: ImportedCashFlow[] = [];
  const start = addDays(last, -style.days);
  let cash = style.deposit;
  cashFlows.push({ externalId: "dep-0", time: new Date(`${start}T14:00:00.000Z`), amount: style.deposit });
  type Lot = { symbol: string; quantity: number; cost: number; opened: number; hold: number };
  const open: Lot[] = [];
  let n = 0;
  const trade = (symbol: string, day: Day, side: "buy" | "sell", quantity: number, close: number) => {
    // Filled near the close: within ±0.4 % of it, some minutes before it.
    const price = Math.round(close * (1 + (r() - 0.5) * 0.008) * 100) / 100;
    // Exits earlier in the day than entries, so a day's buys are paid from its sales.
    const minutes = side === "sell" ? 200 + r() * 180 : 5 + r() * 180;
    const time = new Date(closeTime(symbol, day).getTime() - Math.floor(minutes) * 60_000);
    trades.push({
      externalId: `t-${++n}`,
      time,
      symbol,
      assetClass: isCoin(symbol) ? "crypto" : symbol === "SPY" || symbol === "QQQ" ? "etf" : "stock",
      side,
      quantity,
      price,
      fee: style.fee,
    });
    return price;
  };
  for (let k = 0; k <= style.days; k++) {
    const day = addDays(start, k);
    if (style.monthly > 0 && k > 0 && k % 30 === 0) {
      cash += style.monthly;
      cashFlows.push({ externalId: `dep-${k}`, time: new Date(`${day}T14:00:00.000Z`), amount: style.monthly });
    }
    // Exits: a lot past its holding time, at its target or its stop (checked at the day's close).
    for (let i = open.length - 1; i >= 0; i--) {
      const lot = open[i]!;
      const close = series.get(lot.symbol)?.get(day);
      if (close === undefined) continue;
      const ret = close / lot.cost - 1;
      const due = k - lot.opened >= lot.hold;
      const hit = (style.target !== null && ret >= style.target) || (style.stop !== null && ret <= style.stop);
      if ((due || hit) && r() < 0.8) {
        const price = trade(lot.symbol, day, "sell", lot.quantity, close);
        cash += lot.quantity * price - style.fee;
        open.splice(i, 1);
      }
    }
    if (r() >= style.activity) continue;
    let symbol = style.symbols[Math.floor(r() * style.symbols.length)]!;
    if (r() < style.skill) {
      // A good read: the symbol that gains most over the next month (where the series goes on).
      const ahead = addDays(day, 30);
      const gain = (s: string) => (series.get(s)?.get(ahead) ?? 0) / (series.get(s)?.get(day) ?? Infinity);
      symbol = [...style.symbols].sort((a, b) => gain(b) - gain(a))[0]!;
    }
    const close = series.get(symbol)?.get(day);
    const budget = cash * style.size * (0.6 + r() * 0.4);
    if (close === undefined || budget < 50) continue;
    const quantity = isCoin(symbol) ? Math.floor((budget / close) * 10_000) / 10_000 : Math.floor(budget / close);
    if (quantity <= 0) continue;
    const price = trade(symbol, day, "buy", quantity, close);
    cash -= quantity * price + style.fee;
    const hold = Math.round(style.hold[0] + r() * (style.hold[1] - style.hold[0]));
    open.push({ symbol, quantity, cost: price, opened: k, hold });
  }
  // Today's marks: the price source's last final price of every symbol still held.
  const marks = [...new Set(open.map((l) => l.symbol))].flatMap((symbol) => {
    const price = series.get(symbol)?.get(last);
    return price === undefined ? [] : [{ symbol, time: closeTime(symbol, last), price }];
  });
  return { trades, cashFlows, marks };
}

type Seeded = { id: number; style: Style };

/** Users, their linked accounts and histories, and follows: in the caller's transaction. */
export async function insertDemoTraders(trx: DB, series: Series, last: Day): Promise<Seeded[]> {
  const seeded: Seeded[] = [];
  for (const [i, style] of STYLES.entries()) {
    const user = await trx
      .insertInto("users")
      .values({
        email: `seed-demo-${i + 1}@seed.invalid`,
        username: style.username,
        first_name: style.first,
        last_name: style.last,
        onboarded_at: sql`now()`,
        email_verified_at: sql`now()`,
        markets: style.symbols.some(isCoin) ? ["us-stocks", "crypto"] : ["us-stocks"],
        experience: style.voice === "beginner" ? "0-1" : "3-5",
        created_at: sql`now() - ${`${style.days} days`}::interval`,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const account = await trx
      .insertInto("linked_accounts")
      .values({
        user_id: user.id,
        kind: "plaid",
        fingerprint: `seed-demo:${style.username}`,
        label: "Demo brokerage",
        institution_name: "First Platypus Bank",
        status: "importing",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const history = demoHistory(style, series, last);
    await saveImport(account.id, { ...history, events: [], payloads: [] }, trx);
    seeded.push({ id: user.id, style });
  }
  // Follows: each follows three to six others, more of them the steadier traders.
  const r = rng("follows");
  for (const a of seeded)
    for (const b of seeded)
      if (a !== b && r() < 0.35 + (b.style.voice === "index" || b.style.voice === "growth" ? 0.25 : 0))
        await trx.insertInto("follows").values({ follower_id: a.id, followee_id: b.id }).execute();
  await sql`update users u set following_count = (select count(*) from follows where follower_id = u.id),
    followers_count = (select count(*) from follows where followee_id = u.id)
    where u.email like 'seed-demo-%'`.execute(trx);
  return seeded;
}

const drawdown = (x: number | null | undefined) =>
  x === null || x === undefined ? "—" : `-${(Math.abs(x) * 100).toFixed(1)}%`;
const pct = (x: number | null | undefined) =>
  x === null || x === undefined ? "—" : `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}%`;

type Figures = {
  tier: string | null;
  score: number | null;
  twr: number | null;
  maxDrawdown: number | null;
  winRate: number | null;
  trades: number;
};

/** Posts as the trader would write them: their own symbols, trades and figures. */
function postsFor(style: Style, history: History, f: Figures, r: () => number): string[] {
  const bought = history.trades.filter((t) => t.side === "buy");
  const sold = history.trades.filter((t) => t.side === "sell");
  const lastBuy = bought.at(-1);
  const lastSell = sold.at(-1);
  const fav = style.symbols[Math.floor(r() * style.symbols.length)]!;
  const money = (x: number) => `$${x >= 1000 ? Math.round(x).toLocaleString("en-US") : x.toFixed(2)}`;
  const byVoice: Record<Style["voice"], string[]> = {
    index: [
      `Another monthly buy done, ${style.symbols[0]} again. ${history.cashFlows.length} deposits in, no timing, no drama.`,
      `People keep asking what my edge is. There isn't one: buy ${style.symbols.join(" and ")}, add every month, go outside.`,
      `Drawdown on my account was ${drawdown(f.maxDrawdown)} at the worst point. Didn't sell a share. That's the whole plan.`,
    ],
    dividend: [
      `Dividends from ${style.symbols.slice(0, 3).join(", ")} covered my phone bill this quarter. Small wins.`,
      `Trimmed ${lastSell?.symbol ?? fav} after a good run, the money goes back into whatever's cheapest on my list.`,
      `Boring portfolio, ${pct(f.twr)} so far. I'll take boring.`,
    ],
    crypto: [
      lastBuy
        ? `Picked up some ${lastBuy.symbol} at ${money(lastBuy.price)}. Sized small, stop is set.`
        : `Waiting for a pullback before adding.`,
      `${fav} chopping sideways all week. Not touching it until it picks a direction.`,
      `Win rate ${f.winRate === null ? "—" : `${Math.round(f.winRate * 100)}%`} on my swings. Not amazing, but the winners pay for the losers.`,
      `Reminder to myself: the weekend pumps in ${fav} fade by Monday more often than not.`,
    ],
    day: [
      `${f.trades} trades and I'm honestly not sure the last hundred added anything. Fees add up.`,
      lastSell
        ? `Scalped ${lastSell.symbol} out at ${money(lastSell.price)}. Should have held, as usual.`
        : `Flat today.`,
      `Note to self: stop trading the first 15 minutes. ${fav} opening range got me again.`,
      `Grade came back ${f.tier ?? "ungraded"}. The Discipline stars hurt. Fair.`,
    ],
    beginner: [
      `First year investing. Bought ${lastBuy?.symbol ?? fav} because everyone was talking about it... lesson learned?`,
      `Is it normal to check the app 30 times a day? Asking for a friend.`,
      `Down ${drawdown(f.maxDrawdown).slice(1)} at one point, held on. Any tips for position sizing? I think mine is way off.`,
    ],
    growth: [
      `Held ${fav} through the whole dip. Conviction is easy to talk about, harder when it's red for weeks.`,
      `Added to ${lastBuy?.symbol ?? fav} on the pullback. Long term thesis hasn't changed.`,
      `Return since I started: ${pct(f.twr)}. Most of it came from two positions, which is a bit scary.`,
    ],
    swing: [
      lastSell
        ? `Closed ${lastSell.symbol} at ${money(lastSell.price)}. Took the trade, took the exit, no regrets.`
        : `No setups this week.`,
      `Watching ${fav} for a retest before adding. Patience is a position too.`,
      `Cut a loser early today. Max drawdown for the year is ${drawdown(f.maxDrawdown)}, want to keep it that way.`,
      `My rule: if I can't say why I'm in ${fav} in one sentence, I'm out.`,
    ],
    value: [
      `${fav} is hated right now, which is usually when I start buying.`,
      lastBuy
        ? `Started a position in ${lastBuy.symbol} around ${money(lastBuy.price)}. Margin of safety looks decent.`
        : `Nothing cheap enough yet.`,
      `Score ${f.score === null ? "—" : formatScore(f.score)}. Value takes time, the grade will catch up (I hope).`,
    ],
  };
  const own = byVoice[style.voice];
  const score = f.score === null ? "" : ` (${formatScore(f.score)}/100)`;
  const pick = (xs: string[]) => xs[Math.floor(r() * xs.length)]!;
  const good = f.tier === "Gold" || f.tier === "Master" || f.tier === "Legend";
  const general = [
    pick(
      good
        ? [
            `${f.tier}${score}. Didn't expect that, honestly. Mostly just sat on my hands.`,
            `New grade: ${f.tier}${score}. The drawdown is what I'm proudest of keeping small.`,
            `${f.tier} on the latest grade. Now the hard part, not getting cocky.`,
          ]
        : [
            `Got my grade: ${f.tier ?? "ungraded"}${score}. Room to grow, the Risk stars are the weak spot.`,
            `${f.tier ?? "No tier"}${score}. Fair enough, my exits have been sloppy.`,
            `Grade says ${f.tier ?? "nothing yet"}. Going to trade less and see if that moves it.`,
            `${f.tier ?? "Ungraded"}${score} after ${f.trades} trades. The numbers don't lie, I need a plan.`,
          ],
    ),
    pick([
      `What's everyone watching this week? I'm on ${style.symbols.slice(0, 2).join(" and ")}.`,
      `Quiet week for me. Only thing on my screen is ${fav}.`,
      `Anyone else holding ${fav} into next week?`,
      `Journal entry: ${f.trades} trades logged so far. Reading back the early ones is humbling.`,
      `Took the weekend off from charts. Best trade I've made in a while.`,
    ]),
  ];
  return [...own, ...general];
}

const REPLIES = [
  "Same here, good call.",
  "How do you size your positions?",
  "Respect for sticking to the plan.",
  "I got shaken out of that one, nice hold.",
  "What's your stop on it?",
  "Solid. Saving this.",
  "This is the way.",
  "Interesting, I'm on the other side of that trade.",
  "Thanks for sharing the numbers, rare to see.",
  "Ouch, been there.",
];

/**
 * After the traders are stored (and outside that transaction: grading reads the database on its
 * own connection): each seeded demo trader without a grade is graded from the history they hold,
 * then the community's posts, replies and likes are written. Returns how many were graded.
 */
export async function gradeAndPostDemoTraders(db: DB, series: Series, last: Day): Promise<number> {
  const users = await db
    .selectFrom("users")
    .select(["id", "username"])
    .where("email", "like", "seed-demo-%@seed.invalid")
    .where("current_evaluation_id", "is", null)
    .orderBy("id")
    .execute();
  const written: { id: number; style: Style; tier: string | null; posts: string[] }[] = [];
  for (const u of users) {
    const style = STYLES.find((s) => s.username === u.username);
    if (!style) continue;
    const graded = await gradeSeededDemoTrader(u.id);
    if (!graded) continue;
    const m = graded.result.metrics;
    const history = demoHistory(style, series, last);
    const figures: Figures = {
      tier: graded.result.tier,
      score: graded.result.score,
      twr: m.twr,
      maxDrawdown: m.maxDrawdown,
      winRate: m.winRate,
      trades: history.trades.length,
    };
    written.push({
      id: u.id,
      style,
      tier: graded.result.tier,
      posts: postsFor(style, history, figures, rng(`${style.username}:posts`)),
    });
  }
  await compactLeaderboardCounts(db);
  if (written.length === 0) return 0;
  await db.transaction().execute(async (trx) => {
    const r = rng("posts");
    const ids: { id: string; author: number; minutesAgo: number }[] = [];
    // Spread over the last 60 days, in one order for all.
    const seen = new Set<string>();
    const all = written
      .flatMap((w) => w.posts.map((body) => ({ author: w.id, body })))
      .filter((p) => !seen.has(p.body) && seen.add(p.body));
    all.sort(() => r() - 0.5);
    for (const [i, p] of all.entries()) {
      const minutesAgo = Math.max(60, Math.round(((all.length - i) / all.length) * 60 * 24 * 60 - r() * 600));
      const row = await trx
        .insertInto("posts")
        .values({ author_id: p.author, body: p.body, created_at: sql`now() - ${`${minutesAgo} minutes`}::interval` })
        .returning("id")
        .executeTakeFirstOrThrow();
      ids.push({ id: row.id, author: p.author, minutesAgo });
    }
    for (const [i, post] of ids.entries()) {
      if (r() < 0.45) {
        const replier = written[Math.floor(r() * written.length)]!.id;
        if (replier === post.author) continue;
        await trx
          .insertInto("posts")
          .values({
            author_id: replier,
            parent_id: post.id,
            root_id: post.id,
            body: REPLIES[(i + Math.floor(r() * REPLIES.length)) % REPLIES.length]!,
            created_at: sql`now() - ${`${Math.max(1, post.minutesAgo - Math.round(10 + r() * 300))} minutes`}::interval`,
          })
          .execute();
      }
      for (const w of written)
        if (w.id !== post.author && r() < 0.22)
          await trx.insertInto("post_likes").values({ user_id: w.id, post_id: post.id }).execute();
    }
    await seedDemoClubs(trx, written);
    await sql`update posts p set reply_count = (select count(*) from posts c where c.parent_id = p.id),
      like_count = (select count(*) from post_likes l where l.post_id = p.id)
      where p.author_id in (select id from users where email like 'seed-demo-%')`.execute(trx);
  });
  return written.length;
}

/**
 * Two clubs, so a new user of the demo finds clubs to join (one open, one by request), each owned
 * by its best graded member as creating one requires, with a few posts; and three traders who share
 * their trades live, so "Get live trade alerts" shows on their profiles once followed. Written in
 * the posts' transaction: a restart never writes them twice.
 */
const DEMO_CLUBS = [
  {
    name: "US Stocks Desk",
    description: "Stock traders comparing entries, exits and what the grade says about them. Verified records only.",
    markets: "US stocks, ETFs",
    min_tier: null,
    join_policy: "open" as const,
    members: [
      "dex_daytrades_demo",
      "priya_growth_demo",
      "marco_momentum_demo",
      "ruth_value_demo",
      "ava_swing_demo",
      "sam_first_year_demo",
    ],
    posts: [
      "Welcome! Post your week: what you traded, why, and what you would do differently.",
      "Cut a loser early on Tuesday instead of averaging down. Drawdown stayed under 5% this month.",
      "Anyone else sizing down into earnings season? Volatility eats my edge.",
    ],
  },
  {
    name: "On-chain Crypto",
    description: "BTC, ETH and SOL traders with linked wallets and exchanges. Ask to join; Silver or better.",
    markets: "Crypto",
    min_tier: "Silver",
    join_policy: "request" as const,
    members: ["lena_swings_btc_demo", "kenji_eth_sol_demo", "omar_balanced_demo"],
    posts: [
      "Gas is a fee, not a withdrawal: glad the grade finally counts it that way.",
      "Rotated some ETH into SOL this week. Holding the rest through the noise.",
    ],
  },
];
const DEMO_SHARING = ["dex_daytrades_demo", "lena_swings_btc_demo", "marco_momentum_demo"];
const CLUB_CREATORS = new Set(["Gold", "Master", "Legend"]);

async function seedDemoClubs(trx: DB, written: { id: number; style: Style; tier: string | null }[]) {
  const byName = new Map(written.map((w) => [w.style.username, w]));
  const rank = (t: string | null) => (TIERS as readonly string[]).indexOf(t ?? "");
  for (const c of DEMO_CLUBS) {
    const members = c.members.flatMap((u) => byName.get(u) ?? []);
    const owner = [...members].sort((a, b) => rank(b.tier) - rank(a.tier))[0];
    if (!owner || !CLUB_CREATORS.has(owner.tier ?? "")) continue;
    const club = await trx
      .insertInto("clubs")
      .values({
        slug: slugify(c.name),
        name: c.name,
        description: c.description,
        markets: c.markets,
        min_tier: c.min_tier,
        join_policy: c.join_policy,
        owner_id: owner.id,
        member_count: members.length,
      })
      .onConflict((oc) => oc.doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!club) continue;
    await trx
      .insertInto("club_members")
      .values(
        members.map((m) => ({
          club_id: club.id,
          user_id: m.id,
          role: m === owner ? ("owner" as const) : ("member" as const),
          status: "active" as const,
        })),
      )
      .execute();
    for (const [i, body] of c.posts.entries()) {
      // The owner opens; the others take turns (a resumed seed may hold fewer of them: then the owner).
      const others = members.filter((m) => m !== owner);
      const author = i === 0 || others.length === 0 ? owner : others[(i - 1) % others.length]!;
      await trx
        .insertInto("posts")
        .values({
          author_id: author.id,
          club_id: club.id,
          body,
          created_at: sql`now() - ${`${(c.posts.length - i) * 600} minutes`}::interval`,
        })
        .execute();
    }
  }
  for (const u of DEMO_SHARING) {
    const w = byName.get(u);
    if (!w) continue;
    await trx
      .insertInto("trade_alert_settings")
      .values({ user_id: w.id, enabled: true, delay: "15m", hide_sizes: true, since: sql`now()` })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

export const DEMO_TRADERS = STYLES.length;
