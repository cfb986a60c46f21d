import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { grade, parseLedger } from "~/grading";
import { GradeReport, type ReportData } from "./GradeReport";

function report(fixture: string, showAmounts = true): string {
  const r = parseLedger(JSON.parse(readFileSync(join(__dirname, "../../test/fixtures/ledgers", fixture), "utf8")));
  if (!r.ok) throw new Error(r.problems.join("\n"));
  const data: ReportData = {
    evaluation: grade(r.ledger),
    createdAt: "2024-03-01T00:00:00.000Z",
    verificationCode: "ABC123",
    showAmounts,
    history: [],
  };
  return renderToStaticMarkup(createElement(GradeReport, { data }));
}

describe("the report's currency sentence", () => {
  it("says the currency's part of the return for a grade holding another currency", () => {
    const html = report("31-eur-trader-dollar-fall.json");
    expect(html).toContain("Of +5.6%, \u22125.6% came from the currency: the dollar&#x27;s fall against the euro.");
    const fx = report("32-fx-gain-on-foreign-cash.json");
    expect(fx).toContain("the euro&#x27;s rise against the dollar. Realized FX P&amp;L on cash: $501.00.");
    expect(report("32-fx-gain-on-foreign-cash.json", false)).not.toContain("Realized FX");
  });

  it("is absent from a grade all in its base currency", () => {
    expect(report("14-account-fee.json")).not.toContain("currency-split");
  });
});
