import { describe, expect, it } from "vitest";
import { unlinkedDisclosure } from "./unlinked";

describe("unlinkedDisclosure", () => {
  it("says how many accounts were unlinked and their last known return", () => {
    expect(unlinkedDisclosure([])).toBeNull();
    expect(unlinkedDisclosure(null)).toBeNull();
    expect(unlinkedDisclosure([{ kind: "plaid", twr: -0.12 }])).toBe(
      "1 account with a \u221212 % record unlinked since the last grade",
    );
    expect(unlinkedDisclosure([{ kind: "evm", twr: 0.0345 }])).toBe(
      "1 account with a +3.5 % record unlinked since the last grade",
    );
    expect(unlinkedDisclosure([{ kind: "evm", twr: null }])).toBe("1 account unlinked since the last grade");
    expect(
      unlinkedDisclosure([
        { kind: "plaid", twr: -0.12 },
        { kind: "solana", twr: null },
      ]),
    ).toBe("2 accounts unlinked since the last grade (records \u221212 %, unknown)");
  });
});
