import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { grade, parseLedger } from "~/grading";
import { currencySplitSentence } from "./currency-split";

const fixture = (name: string) => {
  const r = parseLedger(JSON.parse(readFileSync(join(__dirname, "../../test/fixtures/ledgers", name), "utf8")));
  if (!r.ok) throw new Error(r.problems.join("\n"));
  return grade(r.ledger).metrics;
};

describe("the currency's part in words", () => {
  it("says how much of the return the dollar's fall took, for a euro-based trader (fixture 31)", () => {
    expect(currencySplitSentence(fixture("31-eur-trader-dollar-fall.json"))).toBe(
      "Of +5.6%, \u22125.6% came from the currency: the dollar's fall against the euro.",
    );
  });

  it("says a rise, and names a currency by its code when it has no name here", () => {
    expect(currencySplitSentence(fixture("33-gbp-dividend-withholding.json"))).toBe(
      "Of +5.4%, +4.0% came from the currency: the pound's rise against the dollar.",
    );
    expect(currencySplitSentence({ twr: 0.1, currencyReturn: -0.02, currencies: ["PLN"], baseCurrency: "EUR" })).toBe(
      "Of +10.0%, \u22122.0% came from the currency: PLN's fall against the euro.",
    );
    expect(currencySplitSentence({ twr: 0.1, currencyReturn: 0.01, currencies: ["CAD", "GBP"] })).toBe(
      "Of +10.0%, +1.0% came from the currency: the moves of CAD, GBP against the dollar.",
    );
  });

  it("says nothing for a ledger all in its base currency", () => {
    expect(currencySplitSentence(fixture("14-account-fee.json"))).toBeNull();
    expect(currencySplitSentence({ twr: null, currencyReturn: null, currencies: ["EUR"] })).toBeNull();
  });
});
