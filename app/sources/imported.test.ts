import { describe, expect, it } from "vitest";
import { nextBatchPart, type ImportBatch } from "./imported";

const at = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 60_000);
const history = (n: number): Omit<ImportBatch, "payloads"> => ({
  trades: Array.from({ length: n }, (_, i) => ({
    externalId: `1:0x${i.toString(16).padStart(4, "0")}`,
    time: at(i),
    symbol: "ETH",
    assetClass: "crypto" as const,
    side: "buy" as const,
    quantity: 1,
    price: 3000,
    fee: 0,
  })),
  cashFlows: [{ externalId: "1:0xdep", time: at(-1), amount: 1000 }],
  marks: [{ symbol: "ETH", time: at(n), price: 3100 }],
  events: [{ externalId: "1:0xrcv", time: at(-2), kind: "receive", symbol: "LINK", quantity: 10, price: 15 }],
});

function allParts(batch: Omit<ImportBatch, "payloads">, size: number, start: string | null = null) {
  const parts = [];
  let after = start;
  for (;;) {
    const { part, last } = nextBatchPart(batch, after, size);
    parts.push(part);
    if (last === null) return parts;
    after = last;
  }
}

describe("nextBatchPart", () => {
  it("stores a history in parts of at most `size` rows, each row once, marks with the first part", () => {
    const batch = history(25);
    const parts = allParts(batch, 10);
    expect(parts.map((p) => p.trades.length + p.cashFlows.length + (p.events?.length ?? 0))).toEqual([10, 10, 7]);
    expect(parts.flatMap((p) => p.trades.map((t) => t.externalId)).sort()).toEqual(
      batch.trades.map((t) => t.externalId).sort(),
    );
    expect(parts.flatMap((p) => p.cashFlows)).toEqual(batch.cashFlows);
    expect(parts.flatMap((p) => p.events ?? [])).toEqual(batch.events);
    expect(parts.map((p) => p.marks.length)).toEqual([1, 0, 0]);
  });

  it("ends with last = null on a history that fits, and on an empty one", () => {
    expect(nextBatchPart(history(3), null, 10).last).toBeNull();
    expect(nextBatchPart({ trades: [], cashFlows: [], marks: [] }, null, 10)).toEqual({
      part: { trades: [], cashFlows: [], marks: [], events: [] },
      last: null,
    });
  });

  it("resumes after the last stored key even when the history is mapped again with rows added or gone", () => {
    const first = history(30);
    const { last } = nextBatchPart(first, null, 12);
    const stored = new Set(nextBatchPart(first, null, 12).part.trades.map((t) => t.externalId));
    // Mapped again after a crash: a row before the cursor vanished and one was added after it.
    const again = {
      ...first,
      trades: [
        ...first.trades.filter((t) => t.externalId !== [...stored][0]),
        { ...first.trades[0]!, externalId: "1:0xffff" },
      ],
    };
    const rest = allParts(again, 12, last).flatMap((p) => p.trades.map((t) => t.externalId));
    expect(rest.filter((id) => stored.has(id))).toEqual([]);
    expect(new Set([...stored, ...rest])).toEqual(new Set([...first.trades.map((t) => t.externalId), "1:0xffff"]));
  });
});
