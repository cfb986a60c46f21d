import { describe, expect, it } from "vitest";
import { normaliseCode } from "./grade-record.server";

describe("normaliseCode", () => {
  it("accepts any case, spaces and dashes, and prints GR-XXXX-XXXX", () => {
    expect(normaliseCode("gr-abcd-efgh")).toBe("GR-ABCD-EFGH");
    expect(normaliseCode("  Gr abcd efgh ")).toBe("GR-ABCD-EFGH");
    expect(normaliseCode("abcdefgh")).toBe("GR-ABCD-EFGH");
    expect(normaliseCode("GR-2345-6789")).toBe("GR-2345-6789");
  });
  it("refuses what cannot be a code", () => {
    for (const raw of ["", "hello", "GR-ABCD-EFG", "GR-ABCD-EFGHI", "GR-ABCD-EF!H", null, undefined])
      expect(normaliseCode(raw), String(raw)).toBeNull();
  });
});
