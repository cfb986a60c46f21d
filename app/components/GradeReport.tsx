import type { Evaluation } from "~/grading";
import { recordDays } from "~/analytics";
import type { RedactedEvaluation } from "~/server/grades/evaluation.server";
import { figureText, formatDay, formatPercent, formatScore } from "~/lib/format-number";
import { benchmarkLabel, BENCHMARK_METRICS, formatMetric, METRICS, shownValue } from "~/lib/metrics";
import { useLocale } from "~/lib/locale-context";
import { currencySplitSentence } from "~/lib/currency-split";
import { disagreementLine, unpricedLine } from "~/lib/data-quality";
import { LineChart } from "./Charts";
import { GradeBadge, Stars } from "./GradeBadge";
import { Term } from "./Term";
import { skillInWords } from "~/content/glossary";
import { DIMENSION_LABELS } from "~/lib/vocabulary";
// The changelog's own file, not ~/grading: the engine stays out of the browser bundle.
import { ENGINE_CHANGELOG } from "~/grading/version";

export type ReportData = {
  /** Redacted when another trader hides their amounts. */
  evaluation: Evaluation | RedactedEvaluation;
  createdAt: string;
  verificationCode: string;
  showAmounts: boolean;
  history: {
    id: number;
    created_at: string;
    tier: string | null;
    score: number | null;
    verification_code: string;
    engine_version?: string;
  }[];
  /** Accounts unlinked since the previous grade, as the signed record discloses them. */
  unlinked?: string | null;
  /** Items the grade could not use, by reason (grades from before it was kept: null). */
  dataQuality?: {
    skipped: { reason: string; count: number }[];
    disagreements?: { symbol: string; computed?: number; reported?: number }[];
    unpriced?: string[];
  } | null;
};

const num = (v: number | null | undefined, digits = 2) => (v === null || v === undefined ? "—" : v.toFixed(digits));

/** Why money-weighted and time-weighted returns differ, in one sentence. */
export function twrVsMwrSentence(twr: number | null, mwr: number | null): string {
  if (twr === null || mwr === null) return "Both returns need deposits or equity history to compare.";
  if (Math.abs(twr - mwr) < 0.01)
    return "They are close: the timing of your deposits and withdrawals barely changed your result.";
  return mwr > twr
    ? "Money-weighted is higher: more of your money was invested during the stronger periods."
    : "Time-weighted is higher: more of your money was invested during the weaker periods, so the timing of deposits cost you.";
}

export function GradeReport({ data }: { data: ReportData }) {
  const e = data.evaluation;
  const m = e.metrics;
  const days = recordDays(e.curve.length || Math.round(m.trackRecordDays), m.activeDays);
  // How the record compares with holding its benchmark, in the engine's words (engine 3 on).
  const versusMarket = e.insights.find((i) => i.id === "alpha")?.text ?? null;
  // Only for a grade holding another currency than its base (engine 3.1 on).
  const currencySplit = currencySplitSentence(m);
  // Amounts in the grade's base currency (engine 3.1 on; absent: US dollars).
  const base = m.baseCurrency ?? "USD";
  const locale = useLocale();
  const money = (k: "totalPnl" | "income", v: number | null) =>
    data.showAmounts && v !== null ? formatMetric(k, v, base, locale) : "hidden";
  if (!e.tier || !e.stars || !e.dimensions) {
    return (
      <section className="card">
        <h2>Not enough to grade yet</h2>
        <ul>
          {e.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      </section>
    );
  }
  return (
    <div className="report">
      <WhatChanged evaluation={e} history={data.history} />
      <section className="card report-head">
        <GradeBadge tier={e.tier} stars={e.stars.overall} size="lg" />
        <div>
          <p className="report-score">
            Score <strong>{formatScore(e.score)}</strong>/100
            {e.percentile !== undefined && e.percentile !== null ? (
              <span className="muted"> · better than {Math.round(e.percentile * 100)}% of graded traders</span>
            ) : null}
          </p>
          <p className="muted small">
            Graded {formatDay(new Date(data.createdAt))} · confidence {Math.round(e.confidence * 100)}% · verification
            code <code>{data.verificationCode}</code>
          </p>
          {data.unlinked ? (
            <p className="tag" data-testid="unlinked-disclosure">
              {data.unlinked}
            </p>
          ) : null}
          {e.provisional ? (
            <p className="tag">
              Provisional: the record is still short, so the tier is capped. More round trips and a longer history lift
              it.
            </p>
          ) : null}
        </div>
      </section>

      <section>
        <h2>Dimensions</h2>
        <ul className="dimensions">
          {(Object.keys(DIMENSION_LABELS) as (keyof typeof DIMENSION_LABELS)[]).map((d) => (
            <li key={d} className="card">
              <span>{DIMENSION_LABELS[d]}</span>
              <Stars count={e.stars![d]} label={`${DIMENSION_LABELS[d]}: ${e.stars![d]} out of 5 stars`} />
              <span className="muted small">{Math.round(e.dimensions![d])} / 100</span>
            </li>
          ))}
        </ul>
      </section>

      <section>
        <h2>Key figures</h2>
        <dl className="figures">
          <div>
            <dt>
              <Term k="simpleReturn" />
            </dt>
            <dd>{formatMetric("simpleReturn", m.simpleReturn)}</dd>
          </div>
          <div>
            <dt>
              <Term k="totalPnl" />
            </dt>
            <dd>{money("totalPnl", m.totalPnl)}</dd>
          </div>
          <div>
            <dt>
              <Term k="twr" />
            </dt>
            <dd>{formatMetric("twr", m.twr)}</dd>
          </div>
          {m.mwr !== null && m.mwr !== undefined ? (
            <div>
              <dt>
                <Term k="mwr">{METRICS.mwr.label} (annual)</Term>
              </dt>
              <dd>{formatMetric("mwr", m.mwr)}</dd>
            </div>
          ) : (
            <div>
              <dt>
                <Term k="mwr">{METRICS.mwr.label} (period)</Term>
              </dt>
              <dd>{formatMetric("mwr", m.mwrCumulative)}</dd>
            </div>
          )}
          {/* The figures against the benchmark, as the list defines them; a grade lacks those its engine had not. */}
          {BENCHMARK_METRICS.map((k) => {
            const v = shownValue(m, k);
            return v === undefined ? null : (
              <div key={k}>
                <dt>
                  <Term k={k} />
                </dt>
                <dd>
                  {formatMetric(k, v)}
                  {k === "benchmark.return" && m.benchmark ? (
                    <span className="muted small"> · {benchmarkLabel(m.benchmark.symbol)}</span>
                  ) : null}
                </dd>
              </div>
            );
          })}
          {/* Engine 3 on: alpha and beta against that benchmark (older grades have neither). */}
          {shownValue(m, "alpha") !== undefined ? (
            <div>
              <dt>
                <Term k="alpha" /> / <Term k="beta">{METRICS.beta.short}</Term>
              </dt>
              <dd>
                {formatMetric("alpha", m.alpha)}
                {m.trackRecordDays >= 365 ? "/yr" : ""} / {formatMetric("beta", m.beta)}
              </dd>
            </div>
          ) : null}
          {m.psr !== null && m.psr !== undefined ? (
            <div>
              <dt>
                <Term k="psr" />
              </dt>
              <dd>{formatMetric("psr", m.psr)}</dd>
            </div>
          ) : null}
          <div>
            <dt>
              <Term k="maxDrawdown" />
            </dt>
            <dd>{formatMetric("maxDrawdown", m.maxDrawdown)}</dd>
          </div>
          <div>
            <dt>
              <Term k="winRate" />
            </dt>
            <dd>{formatMetric("winRate", m.winRate)}</dd>
          </div>
          <div>
            <dt>
              <Term k="profitFactor" />
            </dt>
            <dd>{formatMetric("profitFactor", m.profitFactor)}</dd>
          </div>
          <div>
            <dt>
              <Term k="avgHoldingDays" />
            </dt>
            <dd>{formatMetric("avgHoldingDays", m.avgHoldingDays)}</dd>
          </div>
          <div>
            <dt>
              <Term k="medianHoldingDays" />
            </dt>
            <dd>{formatMetric("medianHoldingDays", m.medianHoldingDays)}</dd>
          </div>
          <div>
            <dt>
              <Term k="trips" />
            </dt>
            <dd>{formatMetric("roundTrips", m.roundTrips)}</dd>
          </div>
          <div>
            <dt>
              <Term k="trackRecordDays" />
            </dt>
            <dd>
              {formatMetric("trackRecordDays", days.days)}
              {days.active !== null ? (
                <span className="muted small"> · {formatMetric("activeDays", days.active)} active</span>
              ) : null}
            </dd>
          </div>
          {m.maxLeverage !== null && m.maxLeverage !== undefined ? (
            <div>
              <dt>
                <Term k="maxLeverage" />
              </dt>
              <dd>{formatMetric("maxLeverage", m.maxLeverage)}</dd>
            </div>
          ) : null}
          {m.income ? (
            <div>
              <dt>
                <Term k="income" />
              </dt>
              <dd>{money("income", m.income)}</dd>
            </div>
          ) : null}
          <div>
            <dt>
              <Term k="sharpe">{METRICS.sharpe.short}</Term> / <Term k="sortino">{METRICS.sortino.short}</Term>
            </dt>
            <dd>
              {formatMetric("sharpe", m.sharpe)} / {formatMetric("sortino", m.sortino)}
            </dd>
          </div>
          {m.downsideDeviation !== null && m.downsideDeviation !== undefined ? (
            <div>
              <dt>
                <Term k="downsideDeviation" />
              </dt>
              <dd>{formatMetric("downsideDeviation", m.downsideDeviation)}</dd>
            </div>
          ) : null}
          {shownValue(m, "riskFreeRate") !== undefined ? (
            <div>
              <dt>
                <Term k="riskFreeRate" />
              </dt>
              <dd>{formatMetric("riskFreeRate", m.riskFreeRate)}</dd>
            </div>
          ) : null}
          {shownValue(m, "positionsAtCost") !== undefined ? (
            <div data-testid="positions-at-cost">
              <dt>
                <Term k="positionsAtCost" />
              </dt>
              <dd>
                {formatMetric("positionsAtCost", m.positionsAtCost)}
                <span className="muted small"> · no reliable price</span>
              </dd>
            </div>
          ) : null}
        </dl>
        {versusMarket ? (
          <p className="skill-words">
            <strong>Against the market:</strong> {versusMarket}
          </p>
        ) : null}
        <p className="muted small">{twrVsMwrSentence(m.twr, m.mwr)}</p>
        {currencySplit ? (
          <p className="skill-words" data-testid="currency-split">
            <strong>
              <Term k="currencyReturn">Currency</Term>:
            </strong>{" "}
            {currencySplit}
            {m.fxRealizedPnl !== undefined && m.fxRealizedPnl !== null && data.showAmounts
              ? ` Realized FX P&L on cash: ${formatMetric("fxRealizedPnl", m.fxRealizedPnl, base, locale)}.`
              : ""}
          </p>
        ) : null}
        {skillInWords(m.psr, m.minTrackRecordDays, m.activeDays) ? (
          <p className="skill-words">
            <strong>Skill or luck?</strong> {skillInWords(m.psr, m.minTrackRecordDays, m.activeDays)}
          </p>
        ) : null}
      </section>

      <section className="charts stacked">
        <div className="card">
          <h2>Growth of your account</h2>
          <LineChart
            id="equity-chart"
            title="Flow-adjusted account index"
            description={`The account's time-weighted index from ${e.curve[0]?.date ?? "the start"} to ${e.curve.at(-1)?.date ?? "now"}, ending at ${num(e.curve.at(-1)?.index)} (1.00 = where it started).`}
            points={e.curve.map((c) => ({ x: c.date, y: c.index }))}
            format={(v) => v.toFixed(2)}
            yLabel="Index (1.00 = start)"
            compare={
              m.benchmark && e.curve.every((c) => typeof c.benchmark === "number")
                ? {
                    label: benchmarkLabel(m.benchmark.symbol),
                    points: e.curve.map((c) => ({ x: c.date, y: c.benchmark! })),
                  }
                : undefined
            }
          />
        </div>
        <div className="card">
          <h2>Drawdown</h2>
          <LineChart
            id="drawdown-chart"
            title="Drawdown from the running peak"
            description={`How far the index stood below its previous high each day; the maximum drawdown was ${formatMetric("maxDrawdown", m.maxDrawdown)}.`}
            points={e.curve.map((c) => ({ x: c.date, y: -c.drawdown }))}
            format={(v) => formatPercent(v, Number.isInteger(Math.round(v * 1000) / 10) ? 0 : 1)}
            yLabel="Below the peak"
            area
            tone="danger"
          />
        </div>
      </section>

      {e.insights.length ? (
        <section>
          <h2>Insights</h2>
          <ol className="insights">
            {e.insights.map((i) => (
              <li key={i.id} className={i.impact >= 0 ? "pos" : "neg"}>
                {figureText(i.text)}
              </li>
            ))}
          </ol>
        </section>
      ) : null}

      {data.dataQuality &&
      (data.dataQuality.skipped.length > 0 ||
        (data.dataQuality.disagreements?.length ?? 0) > 0 ||
        (data.dataQuality.unpriced?.length ?? 0) > 0) ? (
        <section className="card data-quality" aria-labelledby="data-quality-title">
          <h2 id="data-quality-title">What this grade could not use</h2>
          <p className="muted small">
            Items from your linked accounts that were left out, and why. Everything else was graded.
          </p>
          <ul>
            {data.dataQuality.skipped.map((s) => (
              <li key={s.reason}>
                {s.count} × {s.reason}
              </li>
            ))}
            {(data.dataQuality.disagreements ?? []).map((d) => (
              <li key={`pos:${d.symbol}`} data-testid="position-disagreement">
                {disagreementLine(d)}
              </li>
            ))}
            {unpricedLine(data.dataQuality.unpriced) ? (
              <li data-testid="unpriced-symbols">{unpricedLine(data.dataQuality.unpriced)}</li>
            ) : null}
          </ul>
        </section>
      ) : null}

      <section>
        <h2>Grade history</h2>
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Tier</th>
              <th scope="col">Score</th>
              <th scope="col">Code</th>
            </tr>
          </thead>
          <tbody>
            {data.history.map((h) => (
              <tr key={h.id}>
                <td>{formatDay(new Date(h.created_at))}</td>
                <td>{h.tier ?? "—"}</td>
                <td>{formatScore(h.score)}</td>
                <td>
                  <code>{h.verification_code}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

/** When this grade came from a newer engine than the one before, what changed and how the grade moved. */
function WhatChanged({
  evaluation,
  history,
}: {
  evaluation: ReportData["evaluation"];
  history: ReportData["history"];
}) {
  const [current, previous] = history;
  if (!current || !previous || !previous.engine_version || previous.engine_version === evaluation.engineVersion)
    return null;
  const changes = ENGINE_CHANGELOG[evaluation.engineVersion];
  if (!changes) return null;
  return (
    <section className="card what-changed" aria-labelledby="what-changed-title">
      <h2 id="what-changed-title">What changed since your last grade</h2>
      <p>
        This grade uses engine {evaluation.engineVersion}; your previous one ({previous.tier ?? "no tier"}
        {previous.score !== null ? `, ${formatScore(previous.score)}` : ""}) used {previous.engine_version}.
      </p>
      <ul>
        {changes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
    </section>
  );
}
