import { computeAddress, getAddress, Interface, recoverAddress } from "ethers";
import { delay, http, HttpResponse } from "msw";
import { EVM_CHAINS } from "../../app/sources/evm.server";
import { DEMO_EVM_EXPLORER_URL } from "../../app/sources/wallet-demo";
import {
  BINANCE_HOT_WALLET,
  DEMO_BINANCE_DEPOSIT_ADDRESS,
  DEMO_BINANCE_TO_WALLET,
  DEMO_WALLET_TO_BINANCE,
} from "./demo-transfers";
import { simDelay } from "./sim-delay";
import { simulatedCoinPrice } from "./prices";
import { baseUnits, hexDigest, l2TokenAddress, memo, SIM_START, simulateTrading, type SimEvent } from "./wallet-sim";

// An explorer API's answer time for one call (Etherscan: 100–300 ms), scaled by SIM_DELAY_FACTOR.
const EXPLORER_LATENCY_MS = 120;

/**
 * A simulator of Etherscan's multichain explorer API (v2: chainid=1, 8453, 42161, 10, 137, 56;
 * module=account, action=txlist | txlistinternal | tokentx, startblock/endblock, paged with
 * page/offset, sort=asc) for demo mode and tests. Like Etherscan it refuses page × offset > 10,000
 * ("Result window is too large"). Any address gets a deterministic history seeded by the address
 * and chain: on Ethereum about six months of Uniswap-style swaps between stablecoins (USDC, USDT,
 * DAI) and WETH, LINK, UNI, PEPE, AAVE, some token for token, some paid in native ETH, some paid
 * out in native ETH by the router (internal transactions), ETH wrapped into WETH and back where a
 * sale needs the other form, a bridge payout (an internal transfer in), an EIGEN airdrop claimed
 * (DEMO_AIRDROP), a few deposits, winners and losers; on Base and Arbitrum a shorter history of
 * the same kind; nothing on OP, Polygon and BNB Chain. Answers have Etherscan's shapes and strings.
 *
 * Two wallets with a known history, for tests: EVM_SCENARIO_KEY (tokens received from outside and
 * sold, a token-for-token swap, ETH paid out through an internal transaction, a Base deposit and
 * buy) and EVM_BIG_WALLET_KEY (5,600 swaps on Ethereum: more than 10,000 token transfers).
 *
 * Failure simulation, by the wallets of three well-known private keys (so tests can sign for them):
 *   0x…01 → HTTP 500;  0x…02 → never answers;  0x…03 → malformed JSON;
 *   0x…04 → flaky: every second reading of its history fails with HTTP 503 (to show that a failed
 *           re-import leaves the earlier ledger as it was);
 *   0x…05 → HTTP 500 as well, for the browser tests (a failed first import keeps its account: a
 *           wallet of their own keeps them apart from the integration tests' one on any database).
 */
export const EVM_FAILURE_KEYS = {
  explorer500: `0x${"0".repeat(63)}1`,
  timeout: `0x${"0".repeat(63)}2`,
  malformed: `0x${"0".repeat(63)}3`,
  flaky: `0x${"0".repeat(63)}4`,
  explorer500Browser: `0x${"0".repeat(63)}5`,
} as const;
const flakyReads = new Map<string, number>();
const FAILURES = new Map(
  Object.entries(EVM_FAILURE_KEYS).map(([mode, key]) => [
    computeAddress(key).toLowerCase(),
    mode === "explorer500Browser" ? "explorer500" : mode,
  ]),
);

type Token = { address: string; symbol: string; name: string; decimals: number };
const TOKENS: Token[] = [
  {
    address: "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2",
    symbol: "WETH",
    name: "Wrapped Ether",
    decimals: 18,
  },
  {
    address: "0x514910771af9ca656af840dff83e8264ecf986ca",
    symbol: "LINK",
    name: "ChainLink Token",
    decimals: 18,
  },
  { address: "0x1f9840a85d5af5bf1d1762f925bdaddc4201f984", symbol: "UNI", name: "Uniswap", decimals: 18 },
  { address: "0x6982508145454ce325ddbe47a25d4ec3d2311933", symbol: "PEPE", name: "Pepe", decimals: 18 },
  {
    address: "0x7fc66500c84a76ad7e9c93437bfc5ac33e2ddaa9",
    symbol: "AAVE",
    name: "Aave Token",
    decimals: 18,
  },
];
const STABLES: Token[] = [
  { address: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", symbol: "USDC", name: "USD Coin", decimals: 6 },
  { address: "0xdac17f958d2ee523a2206206994597c13d831ec7", symbol: "USDT", name: "Tether USD", decimals: 6 },
  {
    address: "0x6b175474e89094c44da98b954eedeac495271d0f",
    symbol: "DAI",
    name: "Dai Stablecoin",
    decimals: 18,
  },
];
/** A token only the scenario wallet trades: the price simulator gives it a thin confidence. */
const THIN_TOKEN: Token = {
  address: "0xbad000000000000000000000000000000000a11e",
  symbol: "PUMP",
  name: "Pump",
  decimals: 18,
};
/**
 * The demo wallets' airdrop (issue 29 point 4): on Ethereum each claims EIGEN, a token it never
 * held, worth about `usd` at the price source's price then (confidence 0.99, a market's), so its
 * grade shows income in kind at a trusted value (DECISIONS 212, 213).
 */
export const DEMO_AIRDROP = {
  token: {
    address: "0xec53bf9167f50cdeb3ae105f56099aaab9061f83",
    symbol: "EIGEN",
    name: "Eigen",
    decimals: 18,
  } satisfies Token,
  distributor: "0x035bdaeab85e47f9f8ee8bdbf4ca2ee3a50cd9f2",
  time: Math.floor(SIM_START / 1000) + 20 * 86400 + 1234,
  usd: 250,
  /** The units claimed: `usd` at the price then, to the cent's worth of units. */
  quantity(): number {
    const price = simulatedCoinPrice(`ethereum:${this.token.address}`, new Date(this.time * 1000))!;
    return Math.round((this.usd / price) * 1e4) / 1e4;
  },
};
const ROUTER = "0x3fc91a3afd70395cd496c647d5a6cc9d4b2b7fad";
const EXCHANGE = "0x28c6c06298d514db089934071355e5743bf21d60";
/** Another exchange's hot wallet ("Coinbase 10"): where the scenario wallet's USDT comes from. */
const OTHER_EXCHANGE = "0xa9d1e08c7793af67e9d92fe308d5697fb81d3e43";

type Row = Record<string, string>;
type History = { txlist: Row[]; txlistinternal: Row[]; tokentx: Row[] };

const cache = memo<History>();
const ACTIVE_CHAINS = new Set([1, 8453, 42161]);
const BRIDGE = "0x3154cf16ccdb4c6d922629664174b904d80f2c35";
const BLOCK_TIME: Record<number, number> = { 1: 12, 8453: 2, 42161: 0.25 };
const FIRST_BLOCK: Record<number, number> = { 1: 22_390_000, 8453: 29_500_000, 42161: 331_000_000 };

export const EVM_SCENARIO_KEY = `0x${"0".repeat(62)}0d`;
export const EVM_BIG_WALLET_KEY = `0x${"0".repeat(62)}0c`;
export const BIG_WALLET_SWAPS = 5_600;

function pool(a: string, b: string) {
  return `0x${hexDigest("pool", [a, b].sort().join("-")).slice(0, 40)}`;
}

function blockAt(chainId: number, time: number) {
  return FIRST_BLOCK[chainId]! + Math.floor((time - SIM_START / 1000) / BLOCK_TIME[chainId]!);
}

/** The chain's tokens: Ethereum's real contracts; elsewhere the chain's WETH and stables, other tokens at made-up addresses. */
function chainTokens(chainId: number): { tokens: Token[]; stables: Token[] } {
  if (chainId === 1) return { tokens: TOKENS, stables: STABLES };
  const chain = EVM_CHAINS.find((c) => c.id === chainId)!;
  const tokens = TOKENS.map((t, i) =>
    i === 0 ? { ...t, address: chain.wrapped } : { ...t, address: l2TokenAddress(chainId, t.symbol) },
  );
  const stables = chain.stables.slice(0, 2).map((address, i) => ({ ...STABLES[i]!, address }));
  return { tokens, stables };
}

export function demoEvmHistory(address: string, chainId = 1): History {
  const me = address.toLowerCase();
  return cache(`${chainId}:${me}`, () => {
    if (!ACTIVE_CHAINS.has(chainId)) return { txlist: [], txlistinternal: [], tokentx: [] };
    if (me === computeAddress(EVM_SCENARIO_KEY).toLowerCase()) return scenarioHistory(me, chainId);
    if (me === computeAddress(EVM_BIG_WALLET_KEY).toLowerCase())
      return chainId === 1 ? bigHistory(me) : { txlist: [], txlistinternal: [], tokentx: [] };
    const { tokens, stables } = chainTokens(chainId);
    const byAddress = new Map([...tokens, ...stables].map((t) => [t.address, t]));
    const weth = tokens[0]!.address;
    const seed = chainId === 1 ? `evm:${me}` : `evm:${chainId}:${me}`;
    let events = simulateTrading(
      seed,
      // At the price simulator's price of the Ethereum token (a layer 2's copy is the same asset).
      tokens.map((t, i) => {
        const id = `ethereum:${TOKENS[i]!.address}`;
        return { key: t.address, price: (time: number) => simulatedCoinPrice(id, new Date(time * 1000))! };
      }),
      stables.map((s) => s.address),
    );
    // Layer 2s: a shorter history (its first third), still starting with its deposit.
    if (chainId !== 1) events = events.slice(0, Math.ceil(events.length / 3));
    const txlist: Row[] = [];
    const txlistinternal: Row[] = [];
    const tokentx: Row[] = [];
    // The wallet's coin as ETH and as WETH: a sale pays in one form, so the wallet first wraps or
    // unwraps what it lacks of it, as a real one must (WETH9: deposit() and withdraw(), no Transfer log).
    const held = { native: 0, wrapped: 0 };
    const wrap = (e: SimEvent, n: number, eth: number) => {
      const time = e.time - 60;
      const block = blockAt(chainId, time);
      const common = {
        blockNumber: String(block),
        timeStamp: String(time),
        hash: `0x${hexDigest("evm-wrap", chainId === 1 ? me : `${chainId}:${me}`, String(e.index))}`,
        nonce: String(n),
        gasPrice: "6000000000",
      };
      txlist.push({
        ...common,
        from: me,
        to: weth,
        value: eth > 0 ? baseUnits(eth, 18) : "0",
        gas: "60000",
        gasUsed: eth > 0 ? "45038" : "35000",
        isError: "0",
        txreceipt_status: "1",
        input: eth > 0 ? "0xd0e30db0" : "0x2e1a7d4d",
        contractAddress: "",
        methodId: eth > 0 ? "0xd0e30db0" : "0x2e1a7d4d",
        functionName: eth > 0 ? "deposit()" : "withdraw(uint256 wad)",
      });
      if (eth < 0) txlistinternal.push(internal(common, weth, me, -eth));
      held.native -= eth;
      held.wrapped += eth;
    };
    events.forEach((e: SimEvent, n) => {
      const hash = `0x${hexDigest("evm", chainId === 1 ? me : `${chainId}:${me}`, String(e.index))}`;
      const block = blockAt(chainId, e.time);
      const gasPrice = String((5 + (n % 7) * 3) * 1_000_000_000);
      const common = {
        blockNumber: String(block),
        timeStamp: String(e.time),
        hash,
        nonce: String(n),
        blockHash: `0x${hexDigest("block", String(block))}`,
        transactionIndex: String(n % 150),
        gasPrice,
        confirmations: "120000",
      };
      const transfer = (token: Token, from: string, to: string, amount: number, logIndex: number): Row => ({
        ...common,
        from,
        contractAddress: token.address,
        to,
        value: baseUnits(amount, token.decimals),
        tokenName: token.name,
        tokenSymbol: token.symbol,
        tokenDecimal: String(token.decimals),
        gas: "250000",
        gasUsed: "0",
        cumulativeGasUsed: "0",
        logIndex: String(logIndex),
        input: "deprecated",
      });
      if ("deposit" in e) {
        tokentx.push(transfer(byAddress.get(e.deposit)!, EXCHANGE, me, e.amount, 40 + (n % 50)));
        return;
      }
      const out = byAddress.get(e.outToken)!;
      const inn = byAddress.get(e.inToken)!;
      // Every other WETH sale is paid in native ETH (the transaction's value) instead, and every
      // other WETH buy is paid out in native ETH by the router (an internal transaction).
      const nativeOut = out.address === weth && e.index % 2 === 0;
      const nativeIn = inn.address === weth && e.index % 2 === 1;
      if (out.address === weth) {
        const form = nativeOut ? "native" : "wrapped";
        const lacking = e.outAmount - held[form];
        if (lacking > 1e-12) wrap(e, n, nativeOut ? -lacking : lacking);
        held[form] -= e.outAmount;
      }
      if (inn.address === weth) held[nativeIn ? "native" : "wrapped"] += e.inAmount;
      const failedFirst = e.index % 23 === 5; // a reverted attempt before some swaps
      if (failedFirst) {
        txlist.push({
          ...common,
          hash: `0x${hexDigest("evm-reverted", me, String(e.index))}`,
          from: me,
          to: ROUTER,
          value: "0",
          gas: "300000",
          gasUsed: "45000",
          cumulativeGasUsed: "900000",
          isError: "1",
          txreceipt_status: "0",
          input: "0x3593564c",
          contractAddress: "",
          methodId: "0x3593564c",
          functionName: "execute(bytes commands,bytes[] inputs,uint256 deadline)",
        });
      }
      txlist.push({
        ...common,
        from: me,
        to: ROUTER,
        value: nativeOut ? baseUnits(e.outAmount, 18) : "0",
        gas: "300000",
        gasUsed: String(120_000 + (n % 9) * 9000),
        cumulativeGasUsed: "2100000",
        isError: "0",
        txreceipt_status: "1",
        input: "0x3593564c",
        contractAddress: "",
        methodId: "0x3593564c",
        functionName: "execute(bytes commands,bytes[] inputs,uint256 deadline)",
      });
      const p = pool(out.address, inn.address);
      const logIndex = 100 + (n % 80);
      if (!nativeOut) tokentx.push(transfer(out, me, p, e.outAmount, logIndex));
      if (nativeIn) txlistinternal.push(internal(common, ROUTER, me, e.inAmount));
      else tokentx.push(transfer(inn, p, me, e.inAmount, logIndex + 1));
    });
    if (chainId === 1) {
      // A bridge payout: the wallet claims, the bridge contract sends ETH (an internal transfer in).
      const time = Math.floor(SIM_START / 1000) + 12 * 86400 + 777;
      const block = blockAt(1, time);
      const common = {
        blockNumber: String(block),
        timeStamp: String(time),
        hash: `0x${hexDigest("evm-bridge", me)}`,
        gasPrice: "9000000000",
      };
      txlist.push({
        ...common,
        from: me,
        to: BRIDGE,
        value: "0",
        gas: "200000",
        gasUsed: "90000",
        isError: "0",
        txreceipt_status: "1",
        input: "0x379607f5",
        contractAddress: "",
        methodId: "0x379607f5",
        functionName: "claim(uint256 amount)",
      });
      txlistinternal.push(internal(common, BRIDGE, me, 0.25));
      // The airdrop: the wallet calls the distributor (it pays the gas), which sends it EIGEN.
      const a = DEMO_AIRDROP;
      const airdropHash = `0x${hexDigest("evm-airdrop", me)}`;
      const airdropBlock = blockAt(1, a.time);
      txlist.push({
        ...callRow(airdropHash, a.time, airdropBlock, me, a.distributor),
        input: "0x2e7ba6ef",
        methodId: "0x2e7ba6ef",
        functionName: "claim(uint256 index,address account,uint256 amount,bytes32[] merkleProof)",
      });
      tokentx.push(tokenRow(a.token, airdropHash, a.time, airdropBlock, a.distributor, me, a.quantity(), 88));
    }
    const byBlock = (a: Row, b: Row) => Number(a.blockNumber) - Number(b.blockNumber);
    return {
      txlist: txlist.sort(byBlock),
      txlistinternal: txlistinternal.sort(byBlock),
      tokentx: tokentx.sort(byBlock),
    };
  });
}

/** An internal transaction row (Etherscan's txlistinternal shape). */
function internal(common: Row, from: string, to: string, eth: number, traceId = "0_1"): Row {
  return {
    blockNumber: common.blockNumber!,
    timeStamp: common.timeStamp!,
    hash: common.hash!,
    from,
    to,
    value: baseUnits(eth, 18),
    contractAddress: "",
    input: "",
    type: "call",
    gas: "2300",
    gasUsed: "0",
    traceId,
    isError: "0",
    errCode: "",
  };
}

function tokenRow(
  token: Token,
  hash: string,
  time: number,
  block: number,
  from: string,
  to: string,
  amount: number,
  logIndex: number,
): Row {
  return {
    blockNumber: String(block),
    timeStamp: String(time),
    hash,
    from,
    contractAddress: token.address,
    to,
    value: baseUnits(amount, token.decimals),
    tokenName: token.name,
    tokenSymbol: token.symbol,
    tokenDecimal: String(token.decimals),
    gasPrice: "8000000000",
    gasUsed: "0",
    logIndex: String(logIndex),
  };
}

function callRow(hash: string, time: number, block: number, from: string, to: string): Row {
  return {
    blockNumber: String(block),
    timeStamp: String(time),
    hash,
    from,
    to,
    value: "0",
    gas: "300000",
    gasUsed: "150000",
    gasPrice: "8000000000",
    isError: "0",
    txreceipt_status: "1",
    input: "0x3593564c",
    contractAddress: "",
  };
}

/** EVM_SCENARIO_KEY's history: each case once, at known times (2025-05-03 … 05-11). */
export const SCENARIO = {
  received: { symbol: "LINK", quantity: 1000, time: Math.floor(SIM_START / 1000) + 2 * 86400 },
  tokenForToken: {
    outSymbol: "LINK",
    outQuantity: 400,
    inSymbol: "UNI",
    inQuantity: 700,
    time: Math.floor(SIM_START / 1000) + 5 * 86400,
  },
  soldReceived: { symbol: "LINK", quantity: 600, usd: 9000, time: Math.floor(SIM_START / 1000) + 8 * 86400 },
  internalEth: { outSymbol: "UNI", outQuantity: 700, eth: 2, time: Math.floor(SIM_START / 1000) + 10 * 86400 },
  // A token in a pool only this wallet trades: DefiLlama's confidence in it is THIN_CONFIDENCE (an
  // address beginning 0xbad, test/mocks/prices.ts), and the second buy pays 20 % more (DECISIONS 219).
  thinBuys: [
    { usd: 100, quantity: 100, time: Math.floor(SIM_START / 1000) + 9 * 86400 },
    { usd: 12, quantity: 10, time: Math.floor(SIM_START / 1000) + 11 * 86400 },
  ],
  baseDeposit: { usd: 1000, time: Math.floor(SIM_START / 1000) + 3 * 86400 },
  baseBuy: { usd: 900, eth: 0.3, time: Math.floor(SIM_START / 1000) + 4 * 86400 },
} as const;

function scenarioHistory(me: string, chainId: number): History {
  const h: History = { txlist: [], txlistinternal: [], tokentx: [] };
  const hash = (name: string) => `0x${hexDigest("scenario", String(chainId), name)}`;
  const [weth, link, uni] = [TOKENS[0]!, TOKENS[1]!, TOKENS[2]!];
  if (chainId === 1) {
    const r = SCENARIO.received;
    h.tokentx.push(tokenRow(link, hash("received"), r.time, blockAt(1, r.time), EXCHANGE, me, r.quantity, 7));
    const t = SCENARIO.tokenForToken;
    h.txlist.push(callRow(hash("t4t"), t.time, blockAt(1, t.time), me, ROUTER));
    h.tokentx.push(
      tokenRow(link, hash("t4t"), t.time, blockAt(1, t.time), me, pool(link.address, uni.address), t.outQuantity, 10),
    );
    h.tokentx.push(
      tokenRow(uni, hash("t4t"), t.time, blockAt(1, t.time), pool(link.address, uni.address), me, t.inQuantity, 11),
    );
    const s = SCENARIO.soldReceived;
    h.txlist.push(callRow(hash("sell"), s.time, blockAt(1, s.time), me, ROUTER));
    h.tokentx.push(
      tokenRow(
        link,
        hash("sell"),
        s.time,
        blockAt(1, s.time),
        me,
        pool(link.address, STABLES[0]!.address),
        s.quantity,
        20,
      ),
    );
    h.tokentx.push(
      tokenRow(
        STABLES[0]!,
        hash("sell"),
        s.time,
        blockAt(1, s.time),
        pool(link.address, STABLES[0]!.address),
        me,
        s.usd,
        21,
      ),
    );
    for (const [n, b] of SCENARIO.thinBuys.entries()) {
      const name = `thin-${n}`;
      const where = pool(THIN_TOKEN.address, STABLES[0]!.address);
      h.txlist.push(callRow(hash(name), b.time, blockAt(1, b.time), me, ROUTER));
      h.tokentx.push(tokenRow(STABLES[0]!, hash(name), b.time, blockAt(1, b.time), me, where, b.usd, 50));
      h.tokentx.push(tokenRow(THIN_TOKEN, hash(name), b.time, blockAt(1, b.time), where, me, b.quantity, 51));
    }
    const i = SCENARIO.internalEth;
    const common = callRow(hash("eth-out"), i.time, blockAt(1, i.time), me, ROUTER);
    h.txlist.push(common);
    h.tokentx.push(
      tokenRow(
        uni,
        hash("eth-out"),
        i.time,
        blockAt(1, i.time),
        me,
        pool(uni.address, weth.address),
        i.outQuantity,
        30,
      ),
    );
    h.txlistinternal.push(internal(common, ROUTER, me, i.eth));
    // The demo Binance account's moves (test/mocks/demo-transfers.ts): USDT in from another
    // exchange and sent on to Binance, and Binance's ETH withdrawal arriving, under Binance's txIds.
    const usdt = STABLES[1]!;
    const sec = (ms: number) => Math.floor(ms / 1000);
    const f = DEMO_WALLET_TO_BINANCE;
    h.tokentx.push(
      tokenRow(usdt, hash("funding"), sec(f.funded), blockAt(1, sec(f.funded)), OTHER_EXCHANGE, me, f.amount, 2),
    );
    h.txlist.push(callRow(f.txId, sec(f.sent), blockAt(1, sec(f.sent)), me, usdt.address));
    h.tokentx.push(
      tokenRow(usdt, f.txId, sec(f.sent), blockAt(1, sec(f.sent)), me, DEMO_BINANCE_DEPOSIT_ADDRESS, f.amount, 4),
    );
    const w = DEMO_BINANCE_TO_WALLET;
    h.txlist.push({
      ...callRow(w.txId, sec(w.arrives), blockAt(1, sec(w.arrives)), BINANCE_HOT_WALLET, me),
      value: baseUnits(w.amount, 18),
      input: "0x",
      gas: "21000",
      gasUsed: "21000",
    });
  }
  if (chainId === 8453) {
    const { tokens, stables } = chainTokens(8453);
    const d = SCENARIO.baseDeposit;
    h.tokentx.push(tokenRow(stables[0]!, hash("deposit"), d.time, blockAt(8453, d.time), EXCHANGE, me, d.usd, 3));
    const b = SCENARIO.baseBuy;
    h.txlist.push(callRow(hash("buy"), b.time, blockAt(8453, b.time), me, ROUTER));
    h.tokentx.push(
      tokenRow(
        stables[0]!,
        hash("buy"),
        b.time,
        blockAt(8453, b.time),
        me,
        pool(stables[0]!.address, tokens[0]!.address),
        b.usd,
        5,
      ),
    );
    h.tokentx.push(
      tokenRow(
        tokens[0]!,
        hash("buy"),
        b.time,
        blockAt(8453, b.time),
        pool(stables[0]!.address, tokens[0]!.address),
        me,
        b.eth,
        6,
      ),
    );
  }
  return h;
}

/** EVM_BIG_WALLET_KEY: a deposit, then BIG_WALLET_SWAPS alternating LINK buys and sells, one per block. */
function bigHistory(me: string): History {
  const h: History = { txlist: [], txlistinternal: [], tokentx: [] };
  const [link, usdc] = [TOKENS[1]!, STABLES[0]!];
  const start = Math.floor(SIM_START / 1000);
  const block0 = blockAt(1, start);
  h.tokentx.push(tokenRow(usdc, `0x${hexDigest("big", "deposit")}`, start, block0, EXCHANGE, me, 1_000_000, 1));
  for (let n = 0; n < BIG_WALLET_SWAPS; n++) {
    const time = start + 3600 + n * 1200;
    const block = block0 + 300 + n * 100;
    const hash = `0x${hexDigest("big", me, String(n))}`;
    const buy = n % 2 === 0;
    const qty = 100 + (n % 7);
    const usd = qty * (15 + (n % 11) / 10);
    h.txlist.push(callRow(hash, time, block, me, ROUTER));
    h.tokentx.push(
      tokenRow(buy ? usdc : link, hash, time, block, me, pool(link.address, usdc.address), buy ? usd : qty, 2),
    );
    h.tokentx.push(
      tokenRow(buy ? link : usdc, hash, time, block, pool(link.address, usdc.address), me, buy ? qty : usd, 3),
    );
  }
  return h;
}

function etherscan(result: unknown) {
  if (Array.isArray(result) && result.length === 0)
    return HttpResponse.json({ status: "0", message: "No transactions found", result: [] });
  return HttpResponse.json({ status: "1", message: "OK", result });
}

export function evmHandlers() {
  return [
    // Etherscan's proxy module, as ethers' EtherscanProvider posts it (a form body): eth_call only.
    http.post(DEMO_EVM_EXPLORER_URL, async ({ request }) => {
      const form = new URLSearchParams(await request.text());
      const id = 1;
      if (form.get("module") !== "proxy" || form.get("action") !== "eth_call") {
        return HttpResponse.json({ status: "0", message: "NOTOK", result: "Error! Missing Or invalid Action name" });
      }
      try {
        return HttpResponse.json({
          jsonrpc: "2.0",
          id,
          result: simulatedEthCall(form.get("to") ?? "", form.get("data") ?? "0x"),
        });
      } catch {
        return HttpResponse.json({ jsonrpc: "2.0", id, error: { code: 3, message: "execution reverted", data: "0x" } });
      }
    }),
    http.get(DEMO_EVM_EXPLORER_URL, async ({ request }) => {
      await simDelay(EXPLORER_LATENCY_MS);
      const q = new URL(request.url).searchParams;
      const address = (q.get("address") ?? "").toLowerCase();
      const action = q.get("action");
      const chainId = Number(q.get("chainid") ?? "1");
      if (!EVM_CHAINS.some((c) => c.id === chainId))
        return HttpResponse.json({
          status: "0",
          message: "NOTOK",
          result: "Missing or unsupported chainid parameter (required for v2 api)",
        });
      if (
        q.get("module") !== "account" ||
        (action !== "txlist" && action !== "txlistinternal" && action !== "tokentx")
      ) {
        return HttpResponse.json({ status: "0", message: "NOTOK", result: "Error! Missing Or invalid Action name" });
      }
      if (!/^0x[0-9a-f]{40}$/.test(address))
        return HttpResponse.json({ status: "0", message: "NOTOK", result: "Error! Invalid address format" });
      const failure = FAILURES.get(address);
      if (failure === "explorer500")
        return new HttpResponse("<html><body>500 Internal Server Error</body></html>", {
          status: 500,
          headers: { "content-type": "text/html" },
        });
      if (failure === "timeout") {
        await delay("infinite");
      }
      if (failure === "malformed")
        return new HttpResponse('{"status":"1","message":"OK","result":[{"blockNumber":"2239', {
          status: 200,
          headers: { "content-type": "application/json" },
        });
      if (failure === "flaky" && chainId === 1 && action === "txlist" && (q.get("page") ?? "1") === "1") {
        const reads = (flakyReads.get(address) ?? 0) + 1;
        flakyReads.set(address, reads);
        if (reads % 2 === 0)
          return HttpResponse.json({ status: "0", message: "Service temporarily unavailable" }, { status: 503 });
      }
      const page = Math.max(1, Number(q.get("page")) || 1);
      const offset = Math.min(10_000, Math.max(1, Number(q.get("offset")) || 10_000));
      if (page * offset > 10_000)
        return HttpResponse.json({
          status: "0",
          message: "NOTOK",
          result: "Result window is too large, PageNo x Offset size must be less than or equal to 10000",
        });
      const startBlock = Number(q.get("startblock") ?? 0) || 0;
      const endBlock = Number(q.get("endblock") ?? 99_999_999_999) || 99_999_999_999;
      const rows = demoEvmHistory(address, chainId)[action].filter(
        (r) => Number(r.blockNumber) >= startBlock && Number(r.blockNumber) <= endBlock,
      );
      const sorted = q.get("sort") === "desc" ? [...rows].reverse() : rows;
      return etherscan(sorted.slice((page - 1) * offset, page * offset));
    }),
  ];
}

/**
 * A smart-contract wallet (EIP-1271) on the simulated chain: `isValidSignature(hash, signature)`
 * answers the magic value 0x1626ba7e when `signature` is its owner's ECDSA signature of `hash` (a
 * one-owner Safe, in effect). The owner's key is a well-known test key, so tests can sign for it.
 */
export const DEMO_CONTRACT_WALLET = {
  address: getAddress("0x5afe5afe5afe5afe5afe5afe5afe5afe5afe0001"),
  ownerKey: `0x${"0".repeat(62)}0b`,
} as const;
const EIP1271 = new Interface(["function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)"]);

/** eth_call on the simulated chain: the contract wallet's answer, "0x" for any other address (no code). */
export function simulatedEthCall(to: string, data: string): string {
  if (to.toLowerCase() !== DEMO_CONTRACT_WALLET.address.toLowerCase()) return "0x";
  try {
    const [hash, signature] = EIP1271.decodeFunctionData("isValidSignature", data) as unknown as [string, string];
    const ok = recoverAddress(hash, signature) === computeAddress(DEMO_CONTRACT_WALLET.ownerKey);
    return EIP1271.encodeFunctionResult("isValidSignature", [ok ? "0x1626ba7e" : "0xffffffff"]);
  } catch {
    // A malformed call or signature reverts, as the real contract would.
    throw new Error("execution reverted");
  }
}
