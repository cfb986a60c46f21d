// The locale amounts are written in (DECISIONS 205): the browser's Accept-Language, negotiated once
// on the server in the root loader and handed to every component by LocaleProvider, so the server's
// render and the browser's hydration format alike. Plain data and Intl only: safe for the browser.

/** The locale of a request that names none Intl can format (and of the card, the API, CSV: none). */
export const DEFAULT_LOCALE = "en-US";

// A header is read only this far: a browser sends a handful of tags, never dozens.
const MAX_TAGS = 20;
const MAX_HEADER = 1_000;

/**
 * The first language of an Accept-Language header, by weight, that Intl formats numbers in, as
 * language[-Script][-REGION] ("de-DE", "fr", "zh-Hant-TW": extensions dropped, so a header cannot
 * pick the digits or the currency); "*", q=0, malformed or unknown tags are passed over;
 * DEFAULT_LOCALE when none is left.
 */
export function localeFromAcceptLanguage(header: string | null | undefined): string {
  if (!header) return DEFAULT_LOCALE;
  const ranked = header
    .slice(0, MAX_HEADER)
    .split(",", MAX_TAGS)
    .map((part, i) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((r) => r.tag && r.tag !== "*" && Number.isFinite(r.q) && r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of ranked) {
    const locale = supported(tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}

function supported(tag: string): string | null {
  try {
    const l = new Intl.Locale(tag);
    const base = [l.language, l.script, l.region].filter(Boolean).join("-");
    // "lookup" finds only what Intl really has data for (not a silent fallback to its default).
    return Intl.NumberFormat.supportedLocalesOf([base], { localeMatcher: "lookup" }).length ? base : null;
  } catch {
    return null; // not a language tag
  }
}
