import { describe, expect, it } from "vitest";
import {
  EVM_CHAINS,
  EVM_PAGE_SIZE,
  evmTransactions,
  mapEvmTransactions,
  nextEvmPage,
  type ExplorerRow,
} from "./evm.server";

const ethereum = EVM_CHAINS[0]!;
const me = "0x00000000000000000000000000000000000000aa";
const router = "0x00000000000000000000000000000000000000bb";
const LINK = "0x514910771af9ca656af840dff83e8264ecf986ca";
const USDC = "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
const rows = (n: number, block = 100): ExplorerRow[] =>
  Array.from({ length: n }, (_, i) => ({ blockNumber: String(block + i) }));

describe("nextEvmPage", () => {
  it("pages through a window, opens a new window from the last block past 10,000 rows, then moves to the next action", () => {
    expect(nextEvmPage({ chain: 0, action: 0, startBlock: 0, page: 1 }, rows(EVM_PAGE_SIZE))).toEqual({
      action: 0,
      startBlock: 0,
      page: 2,
    });
    expect(nextEvmPage({ chain: 0, action: 0, startBlock: 0, page: 10 }, rows(EVM_PAGE_SIZE, 5000))).toEqual({
      action: 0,
      startBlock: 5000 + EVM_PAGE_SIZE - 1,
      page: 1,
    });
    expect(nextEvmPage({ chain: 0, action: 0, startBlock: 0, page: 3 }, rows(12))).toEqual({
      action: 1,
      startBlock: 0,
      page: 1,
    });
    expect(nextEvmPage({ chain: 0, action: 2, startBlock: 0, page: 1 }, [])).toBeNull();
    // 10,000 rows in one block cannot move the window: it goes on past that block.
    expect(
      nextEvmPage(
        { chain: 0, action: 0, startBlock: 7, page: 10 },
        rows(EVM_PAGE_SIZE).map(() => ({ blockNumber: "7" })),
      ),
    ).toEqual({ action: 0, startBlock: 8, page: 1 });
  });
});

describe("evmTransactions and mapEvmTransactions", () => {
  const token = (
    hash: string,
    contract: string,
    symbol: string,
    decimals: number,
    from: string,
    to: string,
    value: string,
    logIndex: string,
    time = "1746230400",
  ) => ({
    hash,
    timeStamp: time,
    blockNumber: "1",
    from,
    to,
    value,
    contractAddress: contract,
    tokenSymbol: symbol,
    tokenDecimal: String(decimals),
    logIndex,
  });
  it("counts native coin paid out by a contract (internal transactions) as a swap leg, dedupes overlapping windows, and books transfers in kind", () => {
    const txs = evmTransactions(me, ethereum, {
      txlist: [
        {
          hash: "0xS",
          timeStamp: "1746316800",
          from: me,
          to: router,
          value: "0",
          gasUsed: "100000",
          gasPrice: "10000000000",
          isError: "0",
        },
      ],
      txlistinternal: [
        {
          hash: "0xS",
          timeStamp: "1746316800",
          from: router,
          to: me,
          value: "2000000000000000000",
          traceId: "0_1",
          isError: "0",
        },
      ],
      tokentx: [
        token("0xD", USDC, "USDC", 6, router, me, "5000000000", "1", "1746144000"),
        token("0xR", LINK, "LINK", 18, router, me, "100000000000000000000", "4"),
        token("0xR", LINK, "LINK", 18, router, me, "100000000000000000000", "4"), // read again by the next window
        token("0xS", LINK, "LINK", 18, me, router, "100000000000000000000", "9", "1746316800"),
      ],
    });
    const swap = txs.find((t) => t.id === "1:0xs")!;
    expect(swap.legs.map((l) => [l.symbol, l.amount])).toEqual([
      ["ETH", 2],
      ["LINK", -100],
    ]);
    const prices: Record<string, number> = { [LINK]: 15, native: 2500 };
    const mapped = mapEvmTransactions(ethereum, txs, (t) => prices[t]);
    // Received LINK: a deposit in kind at its price then; USDC from an exchange: a deposit.
    expect(mapped.events).toEqual([
      {
        externalId: "1:0xr:4",
        time: new Date(1746230400_000),
        kind: "receive",
        symbol: "LINK",
        quantity: 100,
        price: 15,
        txId: "0xr",
      },
    ]);
    expect(mapped.cashFlows).toEqual([{ externalId: "1:0xd:1", time: new Date(1746144000_000), amount: 5000 }]);
    // LINK for ETH, valued through ETH's historical price (the native coin first): 2 × 2500.
    expect(mapped.trades.map((t) => [t.side, t.symbol, t.quantity, t.price])).toEqual([
      ["sell", "LINK", 100, 50],
      ["buy", "ETH", 2, 2500],
    ]);
    expect(mapped.trades[0]!.fee).toBeCloseTo((0.001 * 2500) / 2, 6);
    // Without any price the received token is counted, not booked.
    expect(mapEvmTransactions(ethereum, txs, () => undefined)).toMatchObject({
      events: [],
      transfersSkipped: 1,
      swapsSkipped: 1,
    });
  });

  it("reads WETH as a token of its own, and WETH9's deposit and withdraw (no Transfer logged) as wraps", () => {
    const WETH = ethereum.wrapped;
    const call = (hash: string, to: string, value: string, time: string) => ({
      hash,
      timeStamp: time,
      from: me,
      to,
      value,
      gasUsed: "50000",
      gasPrice: "10000000000",
      isError: "0",
    });
    const txs = evmTransactions(me, ethereum, {
      txlist: [
        { ...call("0xF", router, "0", "1746144000"), from: router, to: me, value: "3000000000000000000" },
        call("0xW", WETH, "2000000000000000000", "1746230400"),
        call("0xU", WETH, "0", "1746316800"),
        call("0xS", router, "0", "1746403200"),
      ],
      txlistinternal: [
        {
          hash: "0xU",
          timeStamp: "1746316800",
          from: WETH,
          to: me,
          value: "500000000000000000",
          traceId: "0",
          isError: "0",
        },
      ],
      tokentx: [
        token("0xS", WETH, "WETH", 18, me, router, "1000000000000000000", "3", "1746403200"),
        token("0xS", USDC, "USDC", 6, router, me, "2600000000", "4", "1746403200"),
      ],
    });
    const mapped = mapEvmTransactions(ethereum, txs, (t) => (t === "native" || t === WETH ? 2500 : undefined));
    expect(mapped.events.filter((e) => e.kind === "wrap")).toEqual([
      expect.objectContaining({
        externalId: "1:0xw:wrap",
        symbol: "ETH",
        quantity: 2,
        toSymbol: "WETH",
        toQuantity: 2,
      }),
      expect.objectContaining({
        externalId: "1:0xu:wrap",
        symbol: "WETH",
        quantity: 0.5,
        toSymbol: "ETH",
        toQuantity: 0.5,
      }),
    ]);
    // Selling WETH is a sale of WETH, not of ETH.
    expect(mapped.trades.map((t) => [t.side, t.symbol, t.quantity, t.price])).toEqual([["sell", "WETH", 1, 2600]]);
    // An explorer that lists the mint as well: the wrapped leg is not implied twice.
    const listed = evmTransactions(me, ethereum, {
      txlist: [call("0xW", WETH, "2000000000000000000", "1746230400")],
      txlistinternal: [],
      tokentx: [
        token(
          "0xW",
          WETH,
          "WETH",
          18,
          "0x0000000000000000000000000000000000000000",
          me,
          "2000000000000000000",
          "1",
          "1746230400",
        ),
      ],
    });
    expect(listed[0]!.legs.map((l) => [l.symbol, l.amount])).toEqual([
      ["ETH", -2],
      ["WETH", 2],
    ]);
  });

  it("reads a router taking ETH and WETH together for LINK as one exchange at ETH's price (DECISIONS 221)", () => {
    const WETH = ethereum.wrapped;
    const txs = evmTransactions(me, ethereum, {
      // 1 ETH sent with the call, 0.5 WETH pulled from the wallet, 150 LINK back.
      txlist: [
        {
          hash: "0xP",
          timeStamp: "1746230400",
          from: me,
          to: router,
          value: "1000000000000000000",
          gasUsed: "150000",
          gasPrice: "10000000000",
          isError: "0",
        },
      ],
      txlistinternal: [],
      tokentx: [
        token("0xP", WETH, "WETH", 18, me, router, "500000000000000000", "3"),
        token("0xP", LINK, "LINK", 18, router, me, "150000000000000000000", "4"),
      ],
    });
    const mapped = mapEvmTransactions(ethereum, txs, (t) => (t === "native" ? 2500 : t === LINK ? 99 : undefined));
    // 1.5 ETH × $2,500 = $3,750 for 150 LINK: $25 each (LINK's own $99 is not asked first).
    expect(mapped.swapsSkipped + mapped.swapsUnshaped).toBe(0);
    expect(mapped.trades.map((t) => [t.side, t.symbol, t.quantity, t.price])).toEqual([
      ["sell", "ETH", 1, 2500],
      ["sell", "WETH", 0.5, 2500],
      ["buy", "LINK", 150, 25],
    ]);
  });
});
