import type { ImportedTrade } from "~/server/imports.server";

/**
 * Wallet swaps → ledger trades, shared by the EVM and Solana adapters (pure, no I/O).
 *
 * A swap is one transaction (EVM hash / Solana signature) in which the wallet sent tokens out and
 * received others. Each leg carries its own stable id (hash + log index, signature + account
 * index), which becomes the trade's external id, so re-imports add nothing.
 *
 * Valuation in USD: stablecoins (USDC, USDT, DAI) are $1. Stablecoin out, token X in = buy X;
 * X out, stablecoin in = sell X. A swap with no stablecoin leg is valued through the last price of
 * one of its tokens seen in an earlier stablecoin swap (a sell of one and a buy of the other);
 * with no such price it is skipped with a warning. Stable-to-stable swaps, plain transfers and
 * transactions with several tokens on one side are not trades and are skipped.
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
  time: Date;
  legs: SwapLeg[];
  /** Network fee in the native token (ETH, SOL), valued through `nativeToken`'s last price. */
  fee?: number;
};

export type SwapValuation = { trades: ImportedTrade[]; warnings: string[]; swapsSeen: number; swapsSkipped: number };

const DUST = 1e-12;

export function valueSwaps(transactions: WalletTransaction[], opts: { nativeToken?: string } = {}): SwapValuation {
  const lastPrice = new Map<string, number>();
  const trades: ImportedTrade[] = [];
  const warnings: string[] = [];
  let swapsSeen = 0;
  let swapsSkipped = 0;
  const sorted = [...transactions].sort((a, b) => a.time.getTime() - b.time.getTime() || a.id.localeCompare(b.id));
  for (const tx of sorted) {
    // Net per token: several transfers of one token in one transaction add up.
    const net = new Map<string, SwapLeg>();
    for (const leg of tx.legs) {
      const seen = net.get(leg.token);
      if (seen) net.set(leg.token, { ...seen, amount: seen.amount + leg.amount, id: Math.abs(leg.amount) > Math.abs(seen.amount) ? leg.id : seen.id });
      else net.set(leg.token, { ...leg });
    }
    const legs = [...net.values()].filter((l) => Math.abs(l.amount) > DUST);
    const outs = legs.filter((l) => l.amount < 0);
    const ins = legs.filter((l) => l.amount > 0);
    if (!outs.length || !ins.length) continue; // a transfer, not a swap
    swapsSeen++;
    if (outs.length !== 1 || ins.length !== 1) {
      swapsSkipped++;
      warnings.push(`${tx.id}: ${outs.length} tokens out and ${ins.length} in; only one-for-one swaps are graded.`);
      continue;
    }
    const out = outs[0]!;
    const inn = ins[0]!;
    const outQty = -out.amount;
    const inQty = inn.amount;
    const feeUsd = tx.fee && opts.nativeToken && lastPrice.has(opts.nativeToken) ? tx.fee * lastPrice.get(opts.nativeToken)! : 0;
    const base = { time: tx.time, assetClass: "crypto" as const };
    if (out.stable && inn.stable) continue; // moving between dollars is not a trade
    if (out.stable) {
      const price = outQty / inQty;
      lastPrice.set(inn.token, price);
      trades.push({ ...base, externalId: inn.id, symbol: inn.symbol, side: "buy", quantity: inQty, price, fee: round(feeUsd) });
      continue;
    }
    if (inn.stable) {
      const price = inQty / outQty;
      lastPrice.set(out.token, price);
      trades.push({ ...base, externalId: out.id, symbol: out.symbol, side: "sell", quantity: outQty, price, fee: round(feeUsd) });
      continue;
    }
    // Token for token: value through the last known price of either side.
    const usd = lastPrice.has(out.token) ? outQty * lastPrice.get(out.token)! : lastPrice.has(inn.token) ? inQty * lastPrice.get(inn.token)! : null;
    if (usd === null) {
      swapsSkipped++;
      warnings.push(`${tx.id}: ${out.symbol} → ${inn.symbol} has no known USD price yet (no earlier stablecoin swap of either); skipped.`);
      continue;
    }
    const sellPrice = usd / outQty;
    const buyPrice = usd / inQty;
    lastPrice.set(out.token, sellPrice);
    lastPrice.set(inn.token, buyPrice);
    trades.push({ ...base, externalId: out.id, symbol: out.symbol, side: "sell", quantity: outQty, price: sellPrice, fee: round(feeUsd / 2) });
    trades.push({ ...base, externalId: inn.id, symbol: inn.symbol, side: "buy", quantity: inQty, price: buyPrice, fee: round(feeUsd / 2) });
  }
  return { trades, warnings, swapsSeen, swapsSkipped };
}

function round(n: number) {
  return Math.round(n * 1e6) / 1e6;
}
