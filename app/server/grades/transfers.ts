// Moves between the trader's own linked accounts (issue 31, DECISIONS 207): a coin withdrawn from an
// exchange into a linked wallet, or sent from the wallet to the exchange, arrives as a `send` in one
// account and a `receive` in the other. Read apart, the send sells the units at that day's price and
// the receive buys them again: realized P&L that never happened, a holding period cut in two, and
// the same dollars counted as a withdrawal and a deposit. Paired here, they become the engine's
// `transfer` (lots move with their cost and open dates); dollar stablecoins moved between them,
// two opposite cash flows, are left out together. Pure: the ledger builder calls this after
// resolveEvents.
import type { Ledger, LedgerEvent } from "~/grading";
import type { StoredEvent } from "./ledger-events";

type Trade = Ledger["trades"][number];
type CashFlow = Ledger["cashFlows"][number];
type Move = Extract<LedgerEvent, { kind: "receive" | "send" }>;

/** How far apart the two sides of one move may be stated: confirmations, an exchange's queue. */
export const TRANSFER_WINDOW_MS = 24 * 3_600_000;
/** A receive stated this much before its send is the two clocks disagreeing, not another move. */
const CLOCK_SLACK_MS = 3_600_000;
/** What the way may take from a move (a network fee in kind): the receive is at least this share of the send. */
const ARRIVES_AT_LEAST = 0.98;
/**
 * The most a receive may be of its send: the same units for a coin; for dollars, two valuations of
 * one stablecoin (an exchange prices USDT at 1.0003, a wallet at 1).
 */
const COINS_AT_MOST = 1 + 1e-9;
const DOLLARS_AT_MOST = 1.02;
/** What a transfer may be short of the units held and still move them all (floating residue). */
const DUST = 1e-9;

export type PairedLedger = {
  cashFlows: CashFlow[];
  events: LedgerEvent[];
  /** How many moves were read as transfers between the trader's accounts. */
  transfers: number;
};

/** What a stored move says of the chain: its transaction, and the address at the other end. */
export type MoveFacts = ReadonlyMap<string, { txId?: string; address?: string }>;
/** The trader's accounts that hold coins, each with its own address (a wallet's) or null (an exchange's). */
export type CoinAccounts = ReadonlyMap<string, string | null>;

/** An EVM hash or address is compared in lower case; a Solana one is base58, where case matters. */
export const chainId = (s: string) => (/^0x[0-9a-f]+$/i.test(s) ? s.toLowerCase() : s);

/**
 * What stored moves name (`data.txId`, `data.address`: an exchange's deposit and withdrawal
 * records, a wallet's legs), by the id resolveEvents gives their events.
 */
export function moveFactsOf(stored: readonly StoredEvent[]): Map<string, { txId?: string; address?: string }> {
  const facts = new Map<string, { txId?: string; address?: string }>();
  for (const e of stored) {
    if (e.kind !== "receive" && e.kind !== "send") continue;
    const { txId, address } = e.data;
    const f = {
      ...(typeof txId === "string" && txId ? { txId: chainId(txId) } : {}),
      ...(typeof address === "string" && address ? { address: chainId(address) } : {}),
    };
    if (f.txId || f.address) facts.set(`${e.account}:${e.externalId}`, f);
  }
  return facts;
}

const ms = (t: string) => Date.parse(t);
type Side = { account: string; time: string; quantity: number; id: string };

/**
 * Whether `inn` is the arrival of `out` (docs/SOURCES.md "Transfers between your accounts"): two
 * different accounts; the same chain transaction when both name one; else, where one side names
 * the address at its other end and the other side is a wallet, that wallet's address; and always
 * an amount within what the way takes and times within TRANSFER_WINDOW_MS.
 */
function arrives(out: Side, inn: Side, atMost: number, accounts: CoinAccounts, facts: MoveFacts): boolean {
  if (out.account === inn.account) return false;
  const a = facts.get(out.id);
  const b = facts.get(inn.id);
  if (a?.txId && b?.txId) return a.txId === b.txId && inn.quantity <= out.quantity * atMost;
  const to = accounts.get(inn.account);
  const from = accounts.get(out.account);
  if (a?.address && to && a.address !== to) return false;
  if (b?.address && from && b.address !== from) return false;
  const dt = ms(inn.time) - ms(out.time);
  return (
    dt >= -CLOCK_SLACK_MS &&
    dt <= TRANSFER_WINDOW_MS &&
    inn.quantity <= out.quantity * atMost &&
    inn.quantity >= out.quantity * ARRIVES_AT_LEAST
  );
}

/**
 * The arrival of `out` among `candidates` not yet taken: the one naming its transaction, else the
 * nearest in time, then by id, so no order of the input decides.
 */
function arrivalOf<T extends Side>(
  out: T,
  candidates: readonly T[],
  taken: ReadonlySet<T>,
  atMost: number,
  accounts: CoinAccounts,
  facts: MoveFacts,
): T | undefined {
  const tx = facts.get(out.id)?.txId;
  let best: T | undefined;
  let bestKey: [number, number, string] = [2, Infinity, ""];
  for (const c of candidates) {
    if (taken.has(c) || !arrives(out, c, atMost, accounts, facts)) continue;
    const key: [number, number, string] = [
      tx && facts.get(c.id)?.txId === tx ? 0 : 1,
      Math.abs(ms(c.time) - ms(out.time)),
      c.id,
    ];
    if (
      key[0] !== bestKey[0] ? key[0] < bestKey[0] : key[1] !== bestKey[1] ? key[1] < bestKey[1] : key[2] < bestKey[2]
    ) {
      best = c;
      bestKey = key;
    }
  }
  return best;
}

/**
 * The ledger with the trader's moves between their own accounts paired (see the file's head).
 * `accounts`: the accounts that hold coins (wallets, exchanges); only moves between two of them are
 * paired. `facts`: what each move names of the chain. A transfer moves what the sending
 * account holds at that instant (the engine ignores an excess): what it does not hold still
 * arrives as a receive, as before; what the way took stays a send.
 */
export function pairTransfers(
  ledger: { trades: readonly Trade[]; cashFlows: readonly CashFlow[]; events: readonly LedgerEvent[] },
  accounts: CoinAccounts,
  facts: MoveFacts = new Map(),
): PairedLedger {
  const moves = ledger.events.filter(
    (e): e is Move => (e.kind === "receive" || e.kind === "send") && accounts.has(e.account),
  );
  const stableOuts = ledger.cashFlows.filter((c) => c.amount < 0 && accounts.has(c.account));
  if (!moves.some((e) => e.kind === "send") && !stableOuts.length)
    return { cashFlows: [...ledger.cashFlows], events: [...ledger.events], transfers: 0 };
  const byTime = <T extends { time: string; id: string }>(a: T, b: T) =>
    ms(a.time) - ms(b.time) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

  // Coins: each send, oldest first, takes its arrival.
  const sends = moves.filter((e) => e.kind === "send").sort(byTime);
  const receives = new Map<string, Move[]>();
  for (const r of moves.filter((e) => e.kind === "receive").sort(byTime)) {
    const key = `${r.symbol}|${r.currency ?? ""}`;
    (receives.get(key) ?? receives.set(key, []).get(key)!).push(r);
  }
  const taken = new Set<Move>();
  const pairs: { out: Move; inn: Move }[] = [];
  for (const out of sends) {
    const inn = arrivalOf(
      out,
      receives.get(`${out.symbol}|${out.currency ?? ""}`) ?? [],
      taken,
      COINS_AT_MOST,
      accounts,
      facts,
    );
    if (inn) {
      taken.add(inn);
      pairs.push({ out, inn });
    }
  }

  // What each account holds of a coin just before an instant: its trades before it (at one
  // instant transfers come first, docs/GRADING.md §1), and its receives, sends and earlier
  // transfers before it.
  const deltas = new Map<string, { time: number; q: number }[]>();
  const add = (account: string, symbol: string, time: string, q: number) => {
    const key = `${account}|${symbol}`;
    const list = deltas.get(key) ?? deltas.set(key, []).get(key)!;
    list.push({ time: ms(time), q });
  };
  const paired = new Set<LedgerEvent>(pairs.flatMap((p) => [p.out, p.inn]));
  const symbols = new Set(pairs.map((p) => p.out.symbol));
  for (const t of ledger.trades)
    if (symbols.has(t.symbol)) add(t.account, t.symbol, t.time, t.side === "buy" ? t.quantity : -t.quantity);
  for (const e of moves)
    if (!paired.has(e) && symbols.has(e.symbol))
      add(e.account, e.symbol, e.time, e.kind === "receive" ? e.quantity : -e.quantity);
  const heldBefore = (account: string, symbol: string, time: number) =>
    (deltas.get(`${account}|${symbol}`) ?? []).reduce((sum, d) => (d.time < time ? sum + d.q : sum), 0);

  const events: LedgerEvent[] = ledger.events.filter((e) => !paired.has(e));
  let transfers = 0;
  // Oldest first: an earlier transfer is part of what a later one finds held.
  for (const { out, inn } of pairs.sort((a, b) => byTime(a.out, b.out))) {
    const at = Math.min(ms(out.time), ms(inn.time));
    const time = ms(out.time) <= ms(inn.time) ? out.time : inn.time;
    const held = Math.max(0, heldBefore(out.account, out.symbol, at));
    const moved = held >= inn.quantity * (1 - DUST) ? inn.quantity : held;
    if (!(moved > 0)) {
      // Nothing held to move (the sender's history is not all here): both stay as they were.
      events.push(out, inn);
      continue;
    }
    transfers++;
    events.push({
      id: `${out.id}>${inn.id}`,
      time,
      kind: "transfer",
      from: out.account,
      to: inn.account,
      symbol: out.symbol,
      quantity: moved,
    });
    add(out.account, out.symbol, time, -moved);
    add(inn.account, inn.symbol, time, moved);
    if (inn.quantity - moved > DUST * inn.quantity) events.push({ ...inn, quantity: inn.quantity - moved });
    if (out.quantity - inn.quantity > DUST * out.quantity)
      events.push({ ...out, quantity: out.quantity - inn.quantity });
  }

  // Dollar stablecoins: a withdrawal from one account and a deposit into another. Cash is one pool
  // (docs/GRADING.md §4), so the pair moves nothing: both are left out but for their difference.
  const flows = ledger.cashFlows.map((c) => ({
    ...c,
    id: `${c.account}|${c.amount}`,
    quantity: Math.abs(c.amount),
  }));
  const outs = flows.filter((c) => c.amount < 0 && accounts.has(c.account)).sort(byTime);
  const ins = flows.filter((c) => c.amount > 0 && accounts.has(c.account)).sort(byTime);
  const used = new Set<(typeof flows)[number]>();
  /** Each paired flow → what is left of it: nothing, or what the way took from a withdrawal. */
  const left = new Map<(typeof flows)[number], CashFlow | null>();
  for (const out of outs) {
    const inn = arrivalOf(
      out,
      ins.filter((c) => (c.currency ?? "") === (out.currency ?? "")),
      used,
      DOLLARS_AT_MOST,
      accounts,
      new Map(),
    );
    if (!inn) continue;
    used.add(inn);
    transfers++;
    // What the way took stays a withdrawal; a deposit valued above the withdrawal keeps the excess.
    const diff = inn.quantity - out.quantity;
    left.set(out, diff <= -0.005 ? { ...stripped(out), amount: diff } : null);
    left.set(inn, diff >= 0.005 ? { ...stripped(inn), amount: diff } : null);
  }
  const cashFlows: CashFlow[] = [];
  for (const c of flows) {
    const kept = left.has(c) ? left.get(c) : stripped(c);
    if (kept) cashFlows.push(kept);
  }
  return { cashFlows, events, transfers };
}

function stripped(c: CashFlow & { id: string; quantity: number }): CashFlow {
  const { id: _id, quantity: _q, ...flow } = c;
  return flow;
}
