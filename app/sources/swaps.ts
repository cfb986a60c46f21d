import type { ImportedCashFlow, ImportedEvent, ImportedTrade } from "./imported";

/**
 * Wallet swaps → ledger trades, shared by the EVM and Solana adapters (pure, no I/O).
 *
 * A swap is one transaction (EVM hash / Solana signature) in which the wallet sent tokens out and
 * received others. Each leg carries its own stable id (hash + log index, signature + account
 * index), which becomes the trade's external id, so re-imports add nothing.
 *
 * Valuation in USD: stablecoins (USDC, USDT, DAI) are $1. Stablecoin out, token X in = buy X;
 * X out, stablecoin in = sell X. A swap with no stablecoin leg (a sell of one token and a buy of
 * the other) is valued through a historical USD price of one leg at the swap's time when the caller
 * gives a `priceAt` lookup (the native coin's first: the deepest market), else through the last
 * price of one of its tokens seen in an earlier stablecoin swap; with neither it is skipped with a
 * warning. Stable-to-stable swaps and transactions with several tokens on one side (but the coin
 * and its wrapped form, below) are not trades and are skipped.
 *
 * Transfers (only tokens in, or only tokens out) with `transfers: true`: a stablecoin in or out is a
 * deposit or withdrawal (a cash flow), any other token a `receive` / `send` event at its USD price
 * then (historical, else the last swap price), so selling a token that came from outside is no
 * data gap. A transfer of a token without any price is skipped with a warning.
 *
 * Network fees (gas), with `nativeSymbol`: a `fee` event in kind, the native coin's units at its USD
 * price then (DECISIONS 211, 213), for every transaction the wallet paid for, so the fee lowers the
 * return instead of being a withdrawal. Only units the rows hold before the transaction and that
 * no later sale or send needs are paid in kind: the rest of a swap's gas stays a dollar fee on its
 * trade, as before, and the rest of any other transaction's is counted in `feesSkipped`. So gas
 * paid from coins the import never saw (a validator's withdrawal, dust left out) makes no data gap.
 *
 * Wrapping, with `wrappedToken`: a transaction whose only legs are the native coin out and its
 * wrapped token in (or back), one for one, is a `wrap` event (the engine's transfer within the
 * account with a `toSymbol`): the lots keep their cost and dates, no trade, no round trip
 * (DECISIONS 212, 213). Anywhere else the wrapped token is a token of its own (WETH, WSOL).
 *
 * The coin and its wrapped form on one side of a swap, one other token on the other (a Jupiter or
 * Raydium swap paid partly in SOL and partly from a wSOL account, or paying out both), with
 * `wrappedToken`: one exchange, not a skip (DECISIONS 221). Both coin legs trade at one unit
 * price, the coin's (a stablecoin's amount over the coin's units, else its historical price, else
 * the other token's, else the last seen), so the wrapped part gains or loses nothing against the
 * coin; the other token is priced from them. Each leg stays a trade of its own symbol.
 *
 * Fill confidence, with `confidenceAt` (DECISIONS 214, 219): each trade of a swap carries how far the
 * price source vouches for its token's price then (DefiLlama's confidence; 0 when it quotes none),
 * so a fill in a pool only the trader trades marks nothing up. Absent: the fill is a market's.
 *
 * Airdrops, with `transfers`: a token the wallet meets for the first time, received in a transaction
 * the wallet sent itself (it paid the fee) with nothing going out, is a claim: `income` in kind at
 * its USD price then (0 when none is known), not a deposit (DECISIONS 213), with the price's
 * confidence when `confidenceAt` gives one. The engine counts it at no more than a trusted price
 * unless that confidence vouches for it, so a token nobody else trades adds nothing until it is sold.
 */
export type SwapLeg = {
  /** Stable id of this leg, e.g. "0xhash:12" or "sig:3". */
  id: string;
  /** Unique token key (contract address / mint), and the symbol shown. */
  token: string;
  symbol: string;
  /** Signed amount in whole tokens: > 0 received by the wallet, < 0 sent. */
  amount: number;
  stable: boolean;
};

export type WalletTransaction = {
  id: string;
  /** The chain's own id of the transaction (EVM hash, Solana signature), when `id` is not it. */
  txId?: string;
  time: Date;
  legs: SwapLeg[];
  /** Network fee in the native token (ETH, SOL), paid by the wallet before the transaction ran. */
  fee?: number;
};

export type SwapValuation = {
  trades: ImportedTrade[];
  /** With `transfers`: receives and sends in kind, and stablecoin deposits and withdrawals. */
  events: ImportedEvent[];
  cashFlows: ImportedCashFlow[];
  warnings: string[];
  swapsSeen: number;
  /** Swaps left out for want of a USD price. */
  swapsSkipped: number;
  /** Swaps left out for their shape: several tokens on one side (but the coin and its wrapped form). */
  swapsUnshaped: number;
  transfersSkipped: number;
  /** Network fees (or their part) paid from native units the ledger does not hold, outside a swap. */
  feesSkipped: number;
};

/** A token's historical USD price at an instant (prefetched by the caller), or undefined when unknown. */
export type PriceLookup = (token: string, time: Date) => number | undefined;
/** The token key adapters give the chain's native coin (ETH, SOL …), as opposed to any contract or mint. */
export const NATIVE_TOKEN = "native";

export type SwapOptions = {
  /** Token key of the native coin, which pays the network fees. */
  nativeToken?: string;
  /** Token key of the native coin's wrapped form (WETH's contract, wSOL's mint). */
  wrappedToken?: string;
  /** Native units a wrap's legs may differ by besides floating residue (a wSOL account's rent). */
  wrapSlack?: number;
  /** Its symbol in the ledger (ETH, SOL): given, fees are paid in kind. */
  nativeSymbol?: string;
  priceAt?: PriceLookup;
  /** The source's confidence in a token's price at an instant, 0–1 (a fill's, DECISIONS 219). */
  confidenceAt?: PriceLookup;
  transfers?: boolean;
};

/** A token's net amount within this fraction of its legs' gross is floating residue, not a leg. */
const NET_RESIDUE = 1e-12;

/** The wallet's net amount per token in one transaction (several transfers of one token add up). */
function netLegs(tx: WalletTransaction): { outs: SwapLeg[]; ins: SwapLeg[] } {
  const net = new Map<string, SwapLeg>();
  // Relative, never a floor of units: a fixed 1e-12 dropped every wei-sized transfer (issue 29, point 3).
  const gross = new Map<string, number>();
  for (const leg of tx.legs) {
    gross.set(leg.token, (gross.get(leg.token) ?? 0) + Math.abs(leg.amount));
    const seen = net.get(leg.token);
    if (seen)
      net.set(leg.token, {
        ...seen,
        amount: seen.amount + leg.amount,
        id: Math.abs(leg.amount) > Math.abs(seen.amount) ? leg.id : seen.id,
      });
    else net.set(leg.token, { ...leg });
  }
  const legs = [...net.values()].filter((l) => Math.abs(l.amount) > NET_RESIDUE * gross.get(l.token)!);
  return { outs: legs.filter((l) => l.amount < 0), ins: legs.filter((l) => l.amount > 0) };
}

/** A transaction that only wraps the native coin or unwraps it, one for one, as its two legs; else null. */
function wrapOf(outs: SwapLeg[], ins: SwapLeg[], opts: SwapOptions): { from: SwapLeg; to: SwapLeg } | null {
  if (!opts.nativeToken || !opts.wrappedToken || outs.length !== 1 || ins.length !== 1) return null;
  const [from, to] = [outs[0]!, ins[0]!];
  const pair = new Set([from.token, to.token]);
  if (!pair.has(opts.nativeToken) || !pair.has(opts.wrappedToken) || from.token === to.token) return null;
  const gap = Math.abs(from.amount + to.amount);
  return gap <= (opts.wrapSlack ?? 0) + 1e-9 * Math.abs(from.amount) ? { from, to } : null;
}

/**
 * A swap whose one side is the native coin and its wrapped form together, against one other token
 * (Jupiter or Raydium paying part from SOL and part from a wSOL account, a router taking ETH and
 * WETH); else null. `out`: the coin's side is the one sent.
 */
function coinPairOf(
  outs: SwapLeg[],
  ins: SwapLeg[],
  opts: SwapOptions,
): { coins: [SwapLeg, SwapLeg]; other: SwapLeg; out: boolean } | null {
  if (!opts.nativeToken || !opts.wrappedToken) return null;
  const isPair = (side: SwapLeg[]) =>
    side.length === 2 &&
    side.some((l) => l.token === opts.nativeToken) &&
    side.some((l) => l.token === opts.wrappedToken);
  // Legs are netted per token, so the other side holds neither form of the coin.
  if (isPair(outs) && ins.length === 1) return { coins: [outs[0]!, outs[1]!], other: ins[0]!, out: true };
  if (isPair(ins) && outs.length === 1) return { coins: [ins[0]!, ins[1]!], other: outs[0]!, out: false };
  return null;
}

/**
 * The prices `valueSwaps` may ask `priceAt` (and `confidenceAt`) for: the tokens of each
 * one-for-one swap (the token of a stablecoin swap for its confidence only), the coin and the other
 * token of a swap with the coin's two forms on one side, and the native coin at
 * each transaction that paid a fee. A caller fetches these
 * (asynchronously, e.g. app/server/prices.server.ts) and passes a lookup over the answers.
 */
export function pricesNeeded(
  transactions: WalletTransaction[],
  opts: Pick<SwapOptions, "nativeToken" | "wrappedToken" | "wrapSlack" | "transfers"> = {},
): Array<{ token: string; time: Date }> {
  const out: Array<{ token: string; time: Date }> = [];
  for (const tx of transactions) {
    const { outs, ins } = netLegs(tx);
    if (tx.fee && opts.nativeToken) out.push({ token: opts.nativeToken, time: tx.time });
    if (wrapOf(outs, ins, opts)) continue;
    if (!outs.length || !ins.length) {
      if (opts.transfers)
        for (const leg of [...outs, ...ins]) if (!leg.stable) out.push({ token: leg.token, time: tx.time });
      continue;
    }
    if (outs.length === 1 && ins.length === 1)
      for (const leg of [outs[0]!, ins[0]!]) if (!leg.stable) out.push({ token: leg.token, time: tx.time });
    const pair = coinPairOf(outs, ins, opts);
    if (pair) {
      // Both forms are priced as the coin: the wrapped token's own price is never asked.
      out.push({ token: opts.nativeToken!, time: tx.time });
      if (!pair.other.stable) out.push({ token: pair.other.token, time: tx.time });
    }
  }
  return out;
}

/**
 * The tokens a transaction claims (an airdrop, a reward): sent by the wallet (it paid the fee),
 * nothing out, each token received for the first time and neither the native coin, its wrapped
 * form nor a stablecoin (a bridge's payout or a withdrawal of the owner's own coins).
 */
function claimedTokens(
  tx: WalletTransaction,
  outs: SwapLeg[],
  ins: SwapLeg[],
  seen: ReadonlySet<string>,
  opts: SwapOptions,
): ReadonlySet<string> {
  const claimed = new Set<string>();
  if (!(tx.fee !== undefined && tx.fee > 0) || outs.length > 0) return claimed;
  for (const leg of ins)
    if (!leg.stable && !seen.has(leg.token) && leg.token !== opts.nativeToken && leg.token !== opts.wrappedToken)
      claimed.add(leg.token);
  return claimed;
}

export function valueSwaps(transactions: WalletTransaction[], opts: SwapOptions = {}): SwapValuation {
  const sorted = [...transactions].sort((a, b) => a.time.getTime() - b.time.getTime() || a.id.localeCompare(b.id));
  if (!opts.nativeSymbol) return valueSorted(sorted, opts, () => 0).valuation;
  // First without fees in kind: the native units the rows alone hold after each transaction.
  const { heldAfter } = valueSorted(sorted, opts, () => 0);
  // Gas is paid from what is held before its transaction, and what it takes must not be missing
  // from any later sale or send (the engine would call that a data gap): at most the least the
  // rows hold from then on, less what earlier fees took.
  const room: number[] = new Array(sorted.length);
  let least = Infinity;
  for (let i = sorted.length - 1; i >= 0; i--) {
    least = Math.min(least, heldAfter[i]!);
    room[i] = Math.min(least, i > 0 ? heldAfter[i - 1]! : 0);
  }
  return valueSorted(sorted, opts, (i) => room[i]!).valuation;
}

/** valueSwaps over transactions in time order; `room(i)`: the native units fees may have taken by transaction i. */
function valueSorted(
  sorted: WalletTransaction[],
  opts: SwapOptions,
  room: (i: number) => number,
): { valuation: SwapValuation; heldAfter: number[] } {
  const lastPrice = new Map<string, number>();
  const trades: ImportedTrade[] = [];
  const events: ImportedEvent[] = [];
  const cashFlows: ImportedCashFlow[] = [];
  const warnings: string[] = [];
  let swapsSeen = 0;
  let swapsSkipped = 0;
  let swapsUnshaped = 0;
  let transfersSkipped = 0;
  let feesSkipped = 0;
  // Native units the rows other than fees hold after each transaction, and what fees in kind took.
  let nativeHeld = 0;
  const heldAfter: number[] = [];
  let feesPaid = 0;
  // Tokens met in an earlier transaction: one received back (a protocol's withdrawal) is no airdrop.
  const seen = new Set<string>();
  const held = (leg: SwapLeg, quantity: number) => {
    if (leg.token === opts.nativeToken) nativeHeld += quantity;
  };
  const historical = (token: string, time: Date) => {
    const p = opts.priceAt?.(token, time);
    return p !== undefined && Number.isFinite(p) && p > 0 ? p : undefined;
  };
  // A fill's confidence joins its trade only when the source says one (absent: a market fill).
  const vouched = (token: string, time: Date): { confidence?: number } => {
    const c = opts.confidenceAt?.(token, time);
    return c !== undefined && c >= 0 && c <= 1 ? { confidence: c } : {};
  };
  for (const [i, tx] of sorted.entries()) {
    if (i > 0) heldAfter.push(nativeHeld);
    const { outs, ins } = netLegs(tx);
    const claimed = claimedTokens(tx, outs, ins, seen, opts);
    for (const leg of [...outs, ...ins]) seen.add(leg.token);
    const nativePrice = opts.nativeToken
      ? (historical(opts.nativeToken, tx.time) ?? lastPrice.get(opts.nativeToken))
      : undefined;
    // Gas first: it is paid from the balance held before the transaction runs.
    let unpaidFee = tx.fee && tx.fee > 0 ? tx.fee : 0;
    if (unpaidFee > 0 && opts.nativeSymbol) {
      const quantity = Math.min(unpaidFee, room(i) - feesPaid);
      if (quantity > 0) {
        events.push({
          externalId: `${tx.id}:fee`,
          time: tx.time,
          kind: "fee",
          symbol: opts.nativeSymbol,
          quantity,
          ...(nativePrice !== undefined ? { price: nativePrice } : {}),
        });
        feesPaid += quantity;
        unpaidFee = quantity === unpaidFee ? 0 : unpaidFee - quantity;
      }
    }
    const wrap = wrapOf(outs, ins, opts);
    if (wrap) {
      // The wrapped units, one for one: what differs is rent or residue, not the coin's.
      const quantity = Math.abs(wrap.from.token === opts.wrappedToken ? wrap.from.amount : wrap.to.amount);
      held(wrap.from, -quantity);
      held(wrap.to, quantity);
      events.push({
        externalId: `${tx.id}:wrap`,
        time: tx.time,
        kind: "wrap",
        symbol: wrap.from.symbol,
        quantity,
        toSymbol: wrap.to.symbol,
        toQuantity: quantity,
      });
      continue;
    }
    const isSwap = outs.length > 0 && ins.length > 0;
    if (unpaidFee > 0 && opts.nativeSymbol && !isSwap) {
      feesSkipped++;
      warnings.push(
        `${tx.id}: a network fee of ${unpaidFee} ${opts.nativeSymbol} paid from units the ledger does not hold; left out.`,
      );
    }
    if (!isSwap) {
      // A transfer, not a swap.
      if (!opts.transfers) continue;
      for (const leg of [...ins, ...outs]) {
        const quantity = Math.abs(leg.amount);
        if (leg.stable) {
          // Worth less than half a millionth of a dollar, the flow rounds to 0 and moves nothing.
          const amount = round(leg.amount);
          if (amount !== 0) cashFlows.push({ externalId: leg.id, time: tx.time, amount });
          continue;
        }
        if (claimed.has(leg.token)) {
          const price = historical(leg.token, tx.time);
          events.push({
            externalId: leg.id,
            time: tx.time,
            kind: "income",
            symbol: leg.symbol,
            quantity,
            price: price ?? 0,
            ...(price !== undefined ? { source: "defillama", ...vouched(leg.token, tx.time) } : {}),
          });
          continue;
        }
        const price = historical(leg.token, tx.time) ?? lastPrice.get(leg.token);
        if (price === undefined) {
          transfersSkipped++;
          warnings.push(
            `${tx.id}: ${quantity} ${leg.symbol} ${leg.amount > 0 ? "received" : "sent"} has no known USD price; skipped.`,
          );
          continue;
        }
        held(leg, leg.amount);
        events.push({
          externalId: leg.id,
          time: tx.time,
          kind: leg.amount > 0 ? "receive" : "send",
          symbol: leg.symbol,
          quantity,
          price,
          txId: tx.txId ?? tx.id,
        });
      }
      continue;
    }
    swapsSeen++;
    const pair = coinPairOf(outs, ins, opts);
    if (pair) {
      // One exchange: the coin and its wrapped form at one unit price, the coin's, so the wrapped
      // part gains or loses nothing against the coin; the other token is priced from them.
      const [native, wrapped] = pair.coins[0].token === opts.nativeToken ? pair.coins : [pair.coins[1], pair.coins[0]];
      const coinQty = Math.abs(native.amount) + Math.abs(wrapped.amount);
      const otherQty = Math.abs(pair.other.amount);
      const otherHistorical = pair.other.stable ? 1 : historical(pair.other.token, tx.time);
      const otherLast = lastPrice.get(pair.other.token);
      const coinPrice = pair.other.stable
        ? otherQty / coinQty
        : (historical(opts.nativeToken!, tx.time) ??
          (otherHistorical !== undefined ? (otherHistorical * otherQty) / coinQty : undefined) ??
          lastPrice.get(opts.nativeToken!) ??
          lastPrice.get(opts.wrappedToken!) ??
          (otherLast !== undefined ? (otherLast * otherQty) / coinQty : undefined));
      if (coinPrice === undefined) {
        swapsSkipped++;
        warnings.push(
          `${tx.id}: ${native.symbol} and ${wrapped.symbol} ${pair.out ? "→" : "←"} ${pair.other.symbol} has no known USD price; skipped.`,
        );
        continue;
      }
      const legs = pair.other.stable ? [native, wrapped] : [native, wrapped, pair.other];
      const feeUsd = unpaidFee && nativePrice ? unpaidFee * nativePrice : 0;
      for (const leg of legs) {
        const isCoin = leg !== pair.other;
        const quantity = Math.abs(leg.amount);
        const price = isCoin ? coinPrice : (coinPrice * coinQty) / otherQty;
        lastPrice.set(leg.token, price);
        held(leg, leg.amount);
        trades.push({
          time: tx.time,
          assetClass: "crypto",
          externalId: leg.id,
          symbol: leg.symbol,
          side: leg.amount > 0 ? "buy" : "sell",
          quantity,
          price,
          fee: round(feeUsd / legs.length),
          // The wrapped form is vouched for as the coin: it is priced as the coin.
          ...vouched(isCoin ? opts.nativeToken! : leg.token, tx.time),
        });
      }
      continue;
    }
    if (outs.length !== 1 || ins.length !== 1) {
      // Counted apart from the unpriced: nothing says how to split the value among several tokens.
      swapsUnshaped++;
      warnings.push(
        `${tx.id}: ${outs.length} tokens out and ${ins.length} in; only one token for one (the native coin's two forms as one) is graded.`,
      );
      continue;
    }
    const out = outs[0]!;
    const inn = ins[0]!;
    const outQty = -out.amount;
    const inQty = inn.amount;
    // Without fees in kind the whole gas, with them what the holding could not pay, is a dollar fee.
    const feeUsd = unpaidFee && nativePrice ? unpaidFee * nativePrice : 0;
    const base = { time: tx.time, assetClass: "crypto" as const };
    if (out.stable && inn.stable) continue; // moving between dollars is not a trade
    if (out.stable) {
      const price = outQty / inQty;
      lastPrice.set(inn.token, price);
      held(inn, inQty);
      trades.push({
        ...base,
        externalId: inn.id,
        symbol: inn.symbol,
        side: "buy",
        quantity: inQty,
        price,
        fee: round(feeUsd),
        ...vouched(inn.token, tx.time),
      });
      continue;
    }
    if (inn.stable) {
      const price = inQty / outQty;
      lastPrice.set(out.token, price);
      held(out, -outQty);
      trades.push({
        ...base,
        externalId: out.id,
        symbol: out.symbol,
        side: "sell",
        quantity: outQty,
        price,
        fee: round(feeUsd),
        ...vouched(out.token, tx.time),
      });
      continue;
    }
    // Token for token: value through a historical price of either side (the native coin's first),
    // else through the last known price of either side.
    const [first, second] = inn.token === opts.nativeToken ? [inn, out] : [out, inn];
    let usd: number | null = null;
    for (const leg of [first, second]) {
      const p = historical(leg.token, tx.time);
      if (usd === null && p !== undefined) usd = Math.abs(leg.amount) * p;
    }
    if (usd === null)
      usd = lastPrice.has(out.token)
        ? outQty * lastPrice.get(out.token)!
        : lastPrice.has(inn.token)
          ? inQty * lastPrice.get(inn.token)!
          : null;
    if (usd === null) {
      swapsSkipped++;
      warnings.push(
        `${tx.id}: ${out.symbol} → ${inn.symbol} has no known USD price (no historical price, no earlier stablecoin swap of either); skipped.`,
      );
      continue;
    }
    const sellPrice = usd / outQty;
    const buyPrice = usd / inQty;
    lastPrice.set(out.token, sellPrice);
    lastPrice.set(inn.token, buyPrice);
    held(out, -outQty);
    held(inn, inQty);
    trades.push({
      ...base,
      externalId: out.id,
      symbol: out.symbol,
      side: "sell",
      quantity: outQty,
      price: sellPrice,
      fee: round(feeUsd / 2),
      ...vouched(out.token, tx.time),
    });
    trades.push({
      ...base,
      externalId: inn.id,
      symbol: inn.symbol,
      side: "buy",
      quantity: inQty,
      price: buyPrice,
      fee: round(feeUsd / 2),
      ...vouched(inn.token, tx.time),
    });
  }
  if (sorted.length) heldAfter.push(nativeHeld);
  return {
    valuation: {
      trades,
      events,
      cashFlows,
      warnings,
      swapsSeen,
      swapsSkipped,
      swapsUnshaped,
      transfersSkipped,
      feesSkipped,
    },
    heldAfter,
  };
}

function round(n: number) {
  return Math.round(n * 1e6) / 1e6;
}
