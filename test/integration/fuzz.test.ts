import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "~/server/http/openapi.server";
import { baseUrl, signUp } from "../support/http";
import { ownDatabase, startServer, type RunningServer } from "../support/server";

// Property: no request a client can send makes the server answer 5xx. Every JSON route (api.*)
// and every page with a form action is found from app/routes and its group folders (a new route
// is fuzzed without editing this file) and sent bodies built from the field names its source reads
// (for JSON routes also those its OpenAPI document names), with hostile values; every page with a
// loader is asked for with hostile path parameters and queries. The same runs again against a
// server with the seeded demo community, whose traders' grades are partial by design. Bounded runs
// keep it to seconds; a failure prints the shrunk request.

const routesDir = path.resolve(import.meta.dirname, "../../app/routes");

type Target = {
  file: string;
  pattern: string;
  method: "GET" | "POST";
  json: boolean;
  fields: string[];
  intents: string[];
};

/** Remix flat-route file name → URL pattern (":param" for $param). */
function urlPattern(file: string): string | null {
  const base = file.replace(/\.tsx?$/, "");
  if (base === "$" || base.startsWith("_")) return null;
  const segments = base
    .replace(/\[\.\]/g, "\u0000")
    .split(".")
    .filter((s) => s !== "_index")
    .map((s) => s.replace(/\u0000/g, ".").replace(/^\$(.+)$/, ":$1"));
  return "/" + segments.join("/");
}

type Operation = {
  parameters?: { name: string }[];
  requestBody?: { content: Record<string, { schema: { $ref?: string; properties?: Record<string, unknown> } }> };
};

/** The field names the OpenAPI document gives a JSON route (query parameters and body properties). */
function documentedFields(pattern: string, method: "get" | "post"): string[] {
  const doc = openApiDocument() as unknown as {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
  };
  const op = doc.paths[pattern.replace(/:([^/]+)/g, "{$1}")]?.[method];
  if (!op) return [];
  let schema = op.requestBody?.content["application/json"]?.schema;
  if (schema?.$ref) schema = doc.components.schemas[schema.$ref.split("/").pop()!];
  return [...(op.parameters ?? []).map((p) => p.name), ...Object.keys(schema?.properties ?? {})];
}

function targets(): Target[] {
  const out: Target[] = [];
  for (const relative of fs.readdirSync(routesDir, { recursive: true, encoding: "utf8" })) {
    // A file in a group folder (`_profile+/…`) keeps its flat name.
    const file = path.basename(relative);
    const pattern = /\.tsx?$/.test(file) ? urlPattern(file) : null;
    if (!pattern) continue;
    const source = fs.readFileSync(path.join(routesDir, relative), "utf8");
    const fields = new Set<string>(["intent", "id", "email", "password"]);
    for (const m of source.matchAll(/(?:get|has|getAll)\("([a-z_]+)"\)/g)) fields.add(m[1]!);
    for (const m of source.matchAll(/\bname="([a-z_]+)"/g)) fields.add(m[1]!);
    for (const m of source.matchAll(
      /^\s+([a-z_]+): (?:z\.|idSchema|idOrNull|formText|email|password|username|name\b)/gm,
    ))
      fields.add(m[1]!);
    const intents = new Set([...source.matchAll(/intent === "([a-z_-]+)"/g)].map((m) => m[1]!));
    // A form's schema names its intents: intent: z.literal("x") or intent: z.enum(["x", "y"]).
    for (const m of source.matchAll(/intent: z\.(?:literal\("([a-z_-]+)"\)|enum\(\[([^\]]*)\]\))/g))
      for (const name of m[1] ? [m[1]] : [...m[2]!.matchAll(/"([a-z_-]+)"/g)].map((x) => x[1]!)) intents.add(name);
    const json = file.startsWith("api.");
    if (json)
      for (const method of ["get", "post"] as const) for (const f of documentedFields(pattern, method)) fields.add(f);
    if (/export (async )?function action|export const action/.test(source))
      out.push({ file, pattern, method: "POST", json, fields: [...fields], intents: [...intents] });
    if (/export (async )?function loader|export const loader/.test(source))
      out.push({ file, pattern, method: "GET", json, fields: [...fields], intents: [...intents] });
  }
  return out;
}

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    "",
    " ",
    "%E0%A4%A",
    "%",
    "\u0000",
    "1e308",
    "9007199254740992",
    "-1",
    "1.5",
    "NaN",
    "null",
    "[]",
    "{}",
    "<script>",
    "'; drop table users; --",
    "ü\u0301",
    "x".repeat(5000),
    "GR-AAAA-AAAA",
    "public-sandbox-x",
  ),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(1e308, -1e308, 2 ** 53, 2 ** 31, -1, 0, 1.5, 1, true, false, null),
  fc.integer(),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), hostileString, { maxKeys: 2 }),
);
const pathParam = fc.oneof(
  fc.constantFrom(
    "1",
    "2",
    "0",
    "-1",
    "1e308",
    "9007199254740992",
    "2147483648",
    "abc",
    "%E0%A4%A",
    "GR-AAAA-AAAA",
    "1.5",
  ),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);

function requestFor(target: Target, pathParams: fc.Arbitrary<string>) {
  const params = [...target.pattern.matchAll(/:([a-zA-Z]+)/g)].map((m) => m[1]!);
  return fc.record({
    params: fc.tuple(...params.map(() => pathParams)),
    body: fc.dictionary(fc.constantFrom(...target.fields), hostileValue, { maxKeys: 6 }),
    intent: target.intents.length
      ? fc.option(fc.constantFrom(...target.intents), { nil: undefined })
      : fc.constant(undefined),
    rawBody: fc.option(fc.constantFrom("{", "not json", "a=%zz&b", "[1,2]", "null", '{"__proto__":{"x":1}}'), {
      nil: undefined,
      freq: 5,
    }),
    contentType: fc.constantFrom("json", "form", "text/plain", "multipart/form-data; boundary=x", "none"),
    session: fc.constantFrom("none", "valid", "malformed"),
  });
}

function build(
  base: string,
  target: Target,
  r: { params: string[]; body: Record<string, unknown>; intent?: string; rawBody?: string; contentType: string },
) {
  let i = 0;
  const url = target.pattern.replace(/:([a-zA-Z]+)/g, () => r.params[i++] ?? "1");
  const body = { ...r.body, ...(r.intent ? { intent: r.intent } : {}) };
  if (target.method === "GET") {
    const query = new URLSearchParams(
      Object.entries(body).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
    );
    return { url: `${url}?${query}`, init: { method: "GET" } as RequestInit };
  }
  const headers: Record<string, string> = { origin: base };
  let payload: string | undefined;
  const type =
    r.contentType === "json"
      ? target.json
        ? "application/json"
        : "application/x-www-form-urlencoded"
      : r.contentType === "form"
        ? "application/x-www-form-urlencoded"
        : r.contentType;
  if (type !== "none") headers["content-type"] = type;
  if (r.rawBody !== undefined) payload = r.rawBody;
  else if (type === "application/json") payload = JSON.stringify(body);
  else if (type !== "none")
    payload = new URLSearchParams(
      Object.entries(body).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
    ).toString();
  return { url, init: { method: "POST", headers, body: payload, redirect: "manual" } as RequestInit };
}

/** Every request the targets' arbitraries make, sent to `base`: the 5xx answers, each shrunk. */
async function fuzz(base: string, cookie: string, targets: Target[], numRuns: number, pathParams = pathParam) {
  const failures: string[] = [];
  for (const target of targets) {
    // The sign-out and account deletion would end the shared session; they run signed out.
    const mayUseSession = !/^(logout|user\.settings)/.test(target.file);
    await fc
      .assert(
        fc.asyncProperty(requestFor(target, pathParams), async (r) => {
          const { url, init } = build(base, target, r);
          const headers = new Headers(init.headers);
          if (r.session === "valid" && mayUseSession) headers.set("cookie", cookie);
          if (r.session === "malformed") headers.set("cookie", "grader_session=%E0%A4%A");
          const res = await fetch(base + url, { ...init, headers, redirect: "manual" });
          await res.arrayBuffer();
          if (res.status >= 500) failures.push(`${init.method} ${url} ${JSON.stringify(r)} → ${res.status}`);
          return res.status < 500;
        }),
        { numRuns, seed: 17, endOnFailure: true },
      )
      .catch(() => {});
  }
  return failures;
}

describe("fuzzing every JSON route, form action and page", () => {
  let cookie: string;
  const all = targets();

  beforeAll(async () => {
    ({ cookie } = await signUp());
  });

  it("finds the routes", () => {
    // A guard against the discovery silently finding nothing.
    expect(all.filter((t) => t.method === "POST").length).toBeGreaterThan(30);
    expect(all.some((t) => t.pattern === "/api/finance/plaid/import")).toBe(true);
    expect(all.some((t) => t.pattern === "/staking" && t.intents.includes("unstake"))).toBe(true);
    expect(all.some((t) => t.pattern === "/u/:id/stats" && t.method === "GET")).toBe(true);
  });

  it("never answers 5xx", async () => {
    expect(await fuzz(baseUrl(), cookie, all, 20)).toEqual([]);
  }, 180_000);
});

describe("fuzzing every page against the seeded demo community", () => {
  let server: RunningServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startServer({ SEED_DEMO: "1", ...(await ownDatabase()) });
    ({ cookie } = await signUp({ base: server.url }));
  }, 180_000);
  afterAll(() => server?.stop());

  it("never answers 5xx, the seeded traders' ids included", async () => {
    // The seeded traders are the first users: their ids, beside the hostile ones.
    const seededIds = fc.oneof(fc.integer({ min: 1, max: 14 }).map(String), pathParam);
    const pages = targets().filter((t) => t.method === "GET");
    expect(await fuzz(server.url, cookie, pages, 10, seededIds)).toEqual([]);
  }, 180_000);
});
