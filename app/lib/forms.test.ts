import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseForm } from "./forms";

const schema = z.object({
  email: z.string().email("Enter a valid email."),
  password: z.string().min(8, "At least 8 characters."),
});
const form = (o: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(o)) f.append(k, v);
  return f;
};

describe("parseForm", () => {
  it("returns the data when valid", () => {
    expect(parseForm(schema, form({ email: "a@b.co", password: "12345678" }))).toEqual({
      ok: true,
      data: { email: "a@b.co", password: "12345678" },
      values: { email: "a@b.co" },
    });
  });
  it("returns one message per field and keeps what was typed, never the password", () => {
    const r = parseForm(schema, form({ email: "nope", password: "short" }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual({ email: "Enter a valid email.", password: "At least 8 characters." });
    expect(r.values).toEqual({ email: "nope" });
  });
});

describe("parseForm with multi-valued fields", () => {
  it("collects checkbox groups as arrays and keeps them as a list", () => {
    const s = z.object({ markets: z.array(z.enum(["a", "b"])) });
    const f = new FormData();
    f.append("markets", "a");
    f.append("markets", "b");
    expect(parseForm(s, f, { arrays: ["markets"] })).toEqual({
      ok: true,
      data: { markets: ["a", "b"] },
      values: { markets: "a,b" },
    });
    f.append("markets", "zzz");
    const bad = parseForm(s, f, { arrays: ["markets"] });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.values.markets).toBe("a,b,zzz");
  });
});
