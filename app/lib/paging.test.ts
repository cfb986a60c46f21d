import { describe, expect, it } from "vitest";
import { pagingSchema, parseBefore, parsePage, parsePaging } from "./paging";

const parse = (q: string) =>
  parsePaging(new URLSearchParams(q), pagingSchema(["time", "symbol"] as const, { sort_by: "time", order: "desc" }));

describe("parsePaging", () => {
  it("applies defaults", () => {
    expect(parse("")).toEqual({ ok: true, paging: { page: 1, page_size: 20, sort_by: "time", order: "desc" } });
  });
  it("reads valid values", () => {
    expect(parse("page=3&page_size=100&sort_by=symbol&order=asc")).toEqual({
      ok: true,
      paging: { page: 3, page_size: 100, sort_by: "symbol", order: "asc" },
    });
  });
  it("refuses unknown sort fields, big pages and bad orders with a message", () => {
    expect(parse("sort_by=password")).toEqual({ ok: false, message: "sort_by: must be one of time, symbol" });
    expect(parse("page_size=101")).toMatchObject({ ok: false, message: "page_size: at most 100" });
    expect(parse("order=sideways")).toMatchObject({ ok: false });
    expect(parse("page=0")).toMatchObject({ ok: false });
    expect(parse("page=x")).toEqual({ ok: false, message: "page: must be a whole number" });
    expect(parse("page_size=ten")).toEqual({ ok: false, message: "page_size: must be a whole number" });
  });
});

describe("parseBefore", () => {
  it("reads a row id and treats anything else as the newest page", () => {
    expect(parseBefore(new URLSearchParams("before=12345"))).toBe("12345");
    for (const q of ["", "before=", "before=abc", "before=-1", "before=1.5", "before=1234567890123456789"])
      expect(parseBefore(new URLSearchParams(q))).toBeNull();
  });
});

describe("parsePage", () => {
  it("reads whole page numbers from 1 to 10,000 and falls back to the first page", () => {
    expect(parsePage(new URLSearchParams("page=3"))).toBe(3);
    for (const q of ["", "page=", "page=0", "page=-2", "page=1.01", "page=abc", "page=10001"])
      expect(parsePage(new URLSearchParams(q))).toBe(1);
  });
});
