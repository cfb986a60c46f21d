import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { grade, parseLedger } from "~/grading";
import { BENCHMARK_METRICS, formatMetric, metricValue, METRICS } from "~/lib/metrics";
import { GradeReport, type ReportData } from "./GradeReport";

function parse(fixture: string) {
  const r = parseLedger(JSON.parse(readFileSync(join(__dirname, "../../test/fixtures/ledgers", fixture), "utf8")));
  if (!r.ok) throw new Error(r.problems.join("\n"));
  return r.ledger;
}

function report(fixture: string, showAmounts = true): string {
  const data: ReportData = {
    evaluation: grade(parse(fixture)),
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

/** Text as React writes it into HTML. */
const html_ = (s: string) => s.replaceAll("&", "&amp;").replaceAll("'", "&#x27;");

describe("the report's figures against the market", () => {
  it("prints each benchmark figure, the risk-free rate and the positions at cost under the metric list's labels", () => {
    const html = report("30-risk-free.json");
    const m = grade(parse("30-risk-free.json")).metrics;
    for (const k of [...BENCHMARK_METRICS, "riskFreeRate"] as const) {
      const shown = `${html_(METRICS[k].label)}</a>`;
      expect(html, k).toContain(shown);
      // The value follows its label and the label's glossary line.
      const after = html.slice(html.indexOf(shown));
      expect(after.slice(after.indexOf("<dd>"), after.indexOf("</dd>")), k).toContain(
        formatMetric(k, metricValue(m, k)),
      );
    }
    expect(html).toContain("S&amp;P 500");
    expect(report("40-untrusted-marks.json")).toContain(`${METRICS.positionsAtCost.label}</a>`);
  });

  it("shows none of them without a benchmark", () => {
    const html = report("14-account-fee.json");
    for (const k of BENCHMARK_METRICS) expect(html, k).not.toContain(`${html_(METRICS[k].label)}</a>`);
  });
});
