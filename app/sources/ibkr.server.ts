// The Interactive Brokers Flex Web Service, version 3 (docs/SOURCES.md, "Interactive Brokers";
// facts in ../shared/PROVIDERS.md §12): SendRequest asks for a statement of the trader's Activity
// Flex Query and answers a reference code; GetStatement answers the statement once generated, or
// 1019 while it is being generated. Pure apart from the fetch: settings and credentials are
// arguments; the statement's XML is mapped by ./ibkr/flex.ts.
import { XMLParser } from "fast-xml-parser";

export type FlexCredentials = { token: string; queryId: string };
export type FlexSettings = {
  /** https://…/AccountManagement/FlexWebService (the simulator's in demo mode). */
  baseUrl: string;
  timeoutMs: number;
};
/** A statement's requested period, ISO dates, at most 365 days (the service's limit). */
export type FlexWindow = { from: string; to: string };
export type FlexReference = { code: string; url: string };

// The service refuses a request without a User-Agent; IBKR's guide asks for technology/version.
const USER_AGENT = `Node.js/${process.versions.node.split(".").slice(0, 2).join(".")} Grader/1.0`;

/** One of the service's error answers: its code (1003…1021) and message, said in our words. */
export class FlexError extends Error {
  constructor(
    readonly code: number,
    readonly serviceMessage: string,
  ) {
    super(flexErrorWords(code, serviceMessage));
  }
  get kind(): FlexErrorKind {
    return flexErrorKind(this.code);
  }
}

/**
 * What an error code means for us: `pending` ask again later (generation in progress, server busy,
 * data not ready), `rate` too many requests (wait longer), `token` the trader must make a new
 * token, `query` the query must be fixed, `reference` the reference code is gone (ask anew), `other`.
 */
export type FlexErrorKind = "pending" | "rate" | "token" | "query" | "reference" | "other";
export function flexErrorKind(code: number): FlexErrorKind {
  if (code === 1019 || code === 1009 || code === 1021 || (code >= 1004 && code <= 1008)) return "pending";
  if (code === 1018) return "rate";
  if (code === 1011 || code === 1012 || code === 1013 || code === 1015) return "token";
  if (code === 1003 || code === 1010 || code === 1014 || code === 1016 || code === 1020) return "query";
  if (code === 1017) return "reference";
  return "other";
}

const WORDS: Record<number, string> = {
  1003: "Interactive Brokers has no statement for this period yet.",
  1009: "Interactive Brokers' servers are busy; Grader will ask again.",
  1010: "This is a legacy Flex query, which the Web Service no longer serves: create a new Activity Flex Query.",
  1011: "The Flex Web Service is not enabled for this account: enable it in Flex Web Service Configuration.",
  1012: "The Flex token has expired: make a new one in Flex Web Service Configuration.",
  1013: "The Flex token is restricted to other IP addresses: make a token without an IP restriction.",
  1014: "Interactive Brokers does not know this query id: copy the Query ID of your Activity Flex Query.",
  1015: "The Flex token is invalid: copy it again from Flex Web Service Configuration, or make a new one.",
  1016: "The query's account is invalid at Interactive Brokers.",
  1017: "The statement's reference code expired; Grader will ask for it again.",
  1018: "Too many requests with this token; Grader will wait before asking again.",
  1019: "Interactive Brokers is still generating the statement; Grader will ask again.",
  1020: "Interactive Brokers could not validate the request: check the token and the query id.",
  1021: "Interactive Brokers could not hand over the statement at this time; Grader will ask again.",
};
export function flexErrorWords(code: number, serviceMessage: string): string {
  return `${WORDS[code] ?? `Interactive Brokers answered: ${serviceMessage || "an error"}.`} (${code})`;
}

const parser = new XMLParser({ ignoreAttributes: true, parseTagValue: false });

const yyyymmdd = (iso: string) => iso.replaceAll("-", "");

async function get(url: URL, settings: FlexSettings): Promise<string> {
  const res = await fetch(url, {
    headers: { "user-agent": USER_AGENT, accept: "application/xml, text/xml" },
    signal: AbortSignal.timeout(settings.timeoutMs),
  });
  if (!res.ok) throw new Error(`Interactive Brokers answered HTTP ${res.status}`);
  return await res.text();
}

/** A FlexStatementResponse's error as a FlexError; null when the answer is not one. */
function errorOf(xml: string): FlexError | null {
  if (!xml.includes("<FlexStatementResponse")) return null;
  const r = (parser.parse(xml) as { FlexStatementResponse?: Record<string, unknown> }).FlexStatementResponse;
  if (!r || r.Status === "Success") return null;
  const code = Number(r.ErrorCode);
  return new FlexError(Number.isFinite(code) ? code : 0, String(r.ErrorMessage ?? ""));
}

/** Where GetStatement may be asked: the Url the service names, on its own host or IBKR's. */
function statementUrl(named: unknown, settings: FlexSettings): string {
  const fallback = `${settings.baseUrl.replace(/\/$/, "")}/GetStatement`;
  if (typeof named !== "string") return fallback;
  try {
    const url = new URL(named);
    const base = new URL(settings.baseUrl);
    if (url.protocol === "https:" && (url.host === base.host || url.hostname.endsWith(".interactivebrokers.com")))
      return url.toString();
  } catch {
    // not a URL: ours
  }
  return fallback;
}

/** Step 1: asks for a statement of the query (over the window when given); its reference code. */
export async function sendRequest(
  credentials: FlexCredentials,
  settings: FlexSettings,
  window?: FlexWindow,
): Promise<FlexReference> {
  const url = new URL(`${settings.baseUrl.replace(/\/$/, "")}/SendRequest`);
  url.searchParams.set("t", credentials.token);
  url.searchParams.set("q", credentials.queryId);
  url.searchParams.set("v", "3");
  if (window) {
    url.searchParams.set("fd", yyyymmdd(window.from));
    url.searchParams.set("td", yyyymmdd(window.to));
  }
  const xml = await get(url, settings);
  const error = errorOf(xml);
  if (error) throw error;
  const r = (parser.parse(xml) as { FlexStatementResponse?: Record<string, unknown> }).FlexStatementResponse;
  const code = r?.ReferenceCode;
  if (typeof code !== "string" && typeof code !== "number")
    throw new Error("Interactive Brokers gave no reference code");
  return { code: String(code), url: statementUrl(r?.Url, settings) };
}

/** Step 2: the statement's XML, or a FlexError (1019 while it is generated). */
export async function getStatement(
  credentials: FlexCredentials,
  reference: FlexReference,
  settings: FlexSettings,
): Promise<string> {
  const url = new URL(reference.url);
  url.searchParams.set("t", credentials.token);
  url.searchParams.set("q", reference.code);
  url.searchParams.set("v", "3");
  const xml = await get(url, settings);
  const error = errorOf(xml);
  if (error) throw error;
  return xml;
}

/** The window of 365 days ending `back` windows before `today` (ISO dates): windows never overlap. */
export function flexWindow(today: string, back: number): FlexWindow {
  const day = 86_400_000;
  const to = Date.parse(`${today}T00:00:00Z`) - back * 365 * day;
  return { from: new Date(to - 364 * day).toISOString().slice(0, 10), to: new Date(to).toISOString().slice(0, 10) };
}
