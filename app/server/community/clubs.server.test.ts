import { describe, expect, it } from "vitest";
import { ClubInput, slugify } from "./clubs.server";

describe("slugify", () => {
  it("makes a URL word of a club name", () => {
    expect(slugify("Crypto Swing Traders!")).toBe("crypto-swing-traders");
    expect(slugify("  Café  Crème -- Options ")).toBe("cafe-creme-options");
    expect(slugify("S&P 500 / NQ")).toBe("s-p-500-nq");
    // Nothing left in a–z0–9: a fixed word, which the unique index then decides on.
    expect(slugify("日本株")).toBe("club");
    expect(slugify("x".repeat(80))).toHaveLength(60);
    expect(slugify(`${"a".repeat(59)} b`)).toBe("a".repeat(59));
  });
});

describe("ClubInput", () => {
  const ok = { name: "  Night   Owls ", description: "Late futures talk.", join_policy: "open" };
  it("trims and folds spaces, and reads an empty minimum tier as none", () => {
    const r = ClubInput.parse({ ...ok, min_tier: "" });
    expect(r).toEqual({
      name: "Night Owls",
      description: "Late futures talk.",
      markets: "",
      min_tier: null,
      join_policy: "open",
    });
    expect(ClubInput.parse({ ...ok, min_tier: "Gold" }).min_tier).toBe("Gold");
  });
  it("refuses each bad field with its own message", () => {
    const r = ClubInput.safeParse({ name: "--", description: "short", min_tier: "Diamond", join_policy: "closed" });
    expect(r.success).toBe(false);
    const byField = Object.fromEntries(r.error!.issues.map((i) => [i.path[0], i.message]));
    expect(byField).toEqual({
      name: "The name needs a letter or a digit.",
      description: "Say what the club is about in at least 10 characters.",
      min_tier: "Choose one of Bronze, Silver, Gold, Master, Legend, or none.",
      join_policy: "Choose open or by request.",
    });
    expect(ClubInput.safeParse({ ...ok, name: "x".repeat(61) }).success).toBe(false);
    expect(ClubInput.safeParse({ ...ok, description: "y".repeat(1001) }).success).toBe(false);
  });
});
