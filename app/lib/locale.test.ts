import { describe, expect, it } from "vitest";
import { DEFAULT_LOCALE, localeFromAcceptLanguage } from "./locale";

describe("localeFromAcceptLanguage", () => {
  it("takes the browser's first language", () => {
    expect(localeFromAcceptLanguage("de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7")).toBe("de-DE");
    expect(localeFromAcceptLanguage("fr")).toBe("fr");
    expect(localeFromAcceptLanguage("en-GB")).toBe("en-GB");
  });

  it("ranks by weight, keeping the header's order among equals", () => {
    expect(localeFromAcceptLanguage("en-US;q=0.5, ja-JP;q=0.9")).toBe("ja-JP");
    expect(localeFromAcceptLanguage("fr-CA, de-DE")).toBe("fr-CA");
    expect(localeFromAcceptLanguage("de-DE;q=0, fr-FR;q=0.1")).toBe("fr-FR");
  });

  it("canonicalises the tag and drops extensions, so a header cannot choose digits or currency", () => {
    expect(localeFromAcceptLanguage("DE-de")).toBe("de-DE");
    expect(localeFromAcceptLanguage("zh-hant-tw")).toBe("zh-Hant-TW");
    expect(localeFromAcceptLanguage("ar-EG-u-nu-latn")).toBe("ar-EG");
    expect(localeFromAcceptLanguage("de-DE-u-cu-jpy")).toBe("de-DE");
  });

  it("passes over what Intl cannot format and falls back to en-US", () => {
    expect(DEFAULT_LOCALE).toBe("en-US");
    expect(localeFromAcceptLanguage(null)).toBe("en-US");
    expect(localeFromAcceptLanguage("")).toBe("en-US");
    expect(localeFromAcceptLanguage("*")).toBe("en-US");
    expect(localeFromAcceptLanguage("xx-YY, de;q=0.5")).toBe("de");
    expect(localeFromAcceptLanguage("not a tag!!, ;q=1, ,")).toBe("en-US");
    expect(localeFromAcceptLanguage("tlh")).toBe("en-US");
  });

  it("reads only the first tags of an endless header", () => {
    expect(localeFromAcceptLanguage(`${"xx,".repeat(5_000)}de-DE`)).toBe("en-US");
  });
});
