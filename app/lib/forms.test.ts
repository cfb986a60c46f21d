import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldError, formDone, formError, formRefused, formText, parseForm } from "./forms";

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

describe("form replies", () => {
  it("formRefused carries parseForm's errors and what was typed, never a password", () => {
    const r = parseForm(schema, form({ email: "nope", password: "short" }));
    if (r.ok) throw new Error("expected a refusal");
    expect(formRefused(r)).toEqual({
      ok: false,
      formError: null,
      notice: null,
      errors: { email: "Enter a valid email.", password: "At least 8 characters." },
      values: { email: "nope" },
    });
  });
  it("formError says one message above the form and keeps the values it is given, secrets dropped", () => {
    expect(
      formError("Wrong email or password.", { email: "a@b.co", password: "x", confirm: "x", current: "y" }),
    ).toEqual({
      ok: false,
      formError: "Wrong email or password.",
      notice: null,
      errors: {},
      values: { email: "a@b.co" },
    });
  });
  it("fieldError refuses one field", () => {
    expect(fieldError("username", "That username is taken.", { username: "bob" })).toEqual({
      ok: false,
      formError: null,
      notice: null,
      errors: { username: "That username is taken." },
      values: { username: "bob" },
    });
  });
  it("formDone has no errors and an optional notice", () => {
    expect(formDone()).toEqual({ ok: true, formError: null, notice: null, errors: {}, values: {} });
    expect(formDone("Saved.", { bio: "hi" })).toEqual({
      ok: true,
      formError: null,
      notice: "Saved.",
      errors: {},
      values: { bio: "hi" },
    });
  });
  it("the repeated and current passwords of the change and reset forms are never echoed by parseForm", () => {
    const r = parseForm(z.object({ token: z.string() }), form({ token: "t", current: "old", confirm: "new" }));
    expect(r.values).toEqual({ token: "t" });
  });
});

describe("a form with several intents parses as a discriminated union", () => {
  const Intents = z.discriminatedUnion("intent", [
    z.object({ intent: z.literal("claim"), task: z.enum(["a", "b"], { message: "Unknown task." }) }),
    z.object({ intent: z.literal("share") }),
  ]);
  it("takes each intent's own fields", () => {
    expect(parseForm(Intents, form({ intent: "claim", task: "a" }))).toMatchObject({
      ok: true,
      data: { intent: "claim", task: "a" },
    });
    expect(parseForm(Intents, form({ intent: "share", task: "zzz" }))).toMatchObject({
      ok: true,
      data: { intent: "share" },
    });
  });
  it("an unknown intent is an error on intent; a bad field of a known intent is that field's", () => {
    const unknown = parseForm(Intents, form({ intent: "nope" }));
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(Object.keys(unknown.errors)).toEqual(["intent"]);
    expect(parseForm(Intents, form({ intent: "claim", task: "zzz" }))).toMatchObject({
      ok: false,
      errors: { task: "Unknown task." },
    });
  });
});

describe("formText", () => {
  it("reads a field as sent, and an absent one as empty", () => {
    const s = z.object({ body: formText, note: formText });
    expect(parseForm(s, form({ body: "  hi " }))).toMatchObject({ ok: true, data: { body: "  hi ", note: "" } });
  });
});
