// grade(): the engine's pipeline. A ledger is prepared (columns), read in one pass (pass.ts), then
// each phase turns the pass into figures in its own file; the order of the phases is the order of
// the warnings (and an implied deposit must reach the pass before anything reads its equity).
import { prepareLedger } from "./prepare";
import type { PreparedLedger } from "./columns";
import { currencyFigures } from "./currency";
import { curveOf } from "./curve";
import { evaluationOf } from "./evaluation";
import { exposureFigures, inKindRows } from "./exposure";
import { fundingOf } from "./funding";
import type { Ledger } from "./ledger";
import { cryptoShareOf, dominantClassOf, marketFigures } from "./market";
import { metricsOf } from "./metrics";
import { ledgerPass } from "./pass";
import { openPositions } from "./positions";
import { returnFigures } from "./returns";
import { equityTolerance, riskFigures } from "./risk";
import { roundTripList, roundTripMetrics } from "./roundtrips";
import { riskFreeDaily } from "./stats";
import { MS_PER_DAY } from "./time";
import type { Evaluation, GradeOptions, RoundTrip } from "./types";
import { equityWarnings, ledgerWarnings } from "./warnings";

/**
 * Grades a validated ledger (prepared here when it is not yet). Pure: the same ledger always
 * yields the same evaluation.
 */
export function grade(ledger: Ledger | PreparedLedger, options: GradeOptions = {}): Evaluation {
  const c = "kind" in ledger ? ledger : prepareLedger(ledger, true);
  const pass = ledgerPass(c);
  const warnings = ledgerWarnings(c, pass);
  // FX P&L on foreign cash: the realized part joins realized P&L, the rest unrealized (§2, §4).
  const fxRealized = c.fx !== undefined ? c.fx.fxRealizedPnl : 0;
  if (c.fx !== undefined) pass.realizedPnl += fxRealized;
  const funding = fundingOf(c, pass, warnings);
  const hasCapital = !Number.isNaN(pass.twrIndex); // after the implied deposit, which can give it capital
  const tolerance = equityTolerance(pass.dayCash, pass.dayValue);
  const rf = riskFreeDaily(c.rfTime, c.rfRate, pass.dayStart, c.asOfMs);
  const risk = riskFigures(pass.days, pass.index, hasCapital, pass.active, tolerance, rf);
  warnings.push(...equityWarnings(pass, funding.impliedFunding));
  const trips = roundTripMetrics(pass);
  const open = openPositions(c, pass);
  const positions = open.positions;
  const unrealized = c.fx !== undefined ? open.unrealized + pass.fxPnl - fxRealized : open.unrealized;
  const returns = returnFigures(c, pass, funding.flows, unrealized, hasCapital);
  const exposure = exposureFigures(c, pass, returns.activeDays, funding.impliedFunding, warnings);
  const market = marketFigures(c, pass, risk, funding.flows, returns, rf, warnings);
  const currency = currencyFigures(c, pass, funding.impliedFunding, returns.twr);
  const metrics = metricsOf({
    trades: c.n - inKindRows(c),
    pass,
    unrealized,
    funding,
    risk,
    trips,
    returns,
    exposure,
    market,
    currency,
  });
  const curve = curveOf(pass, risk.drawdown, market.bench);
  // The score's window starts with the first money in (a trade before any deposit is no record).
  const funded = Math.max(funding.flows.find((f) => f.amount > 0)?.time ?? c.firstMs, c.firstMs);
  const scoredDays = Number.isFinite(funded) ? Math.max(0, (c.asOfMs - funded) / MS_PER_DAY) : 0;
  return evaluationOf(
    c,
    { metrics, positions, curve, warnings, scoredBenchmark: market.scoredBenchmark, scoredDays },
    options,
  );
}

/**
 * Which benchmark fits a ledger: the asset class with the largest average exposure over the curve's
 * days (stocks, ETFs and options against the S&P 500; crypto against bitcoin). null when nothing
 * was ever held at a day's end.
 */
export function dominantAssetClass(ledger: Ledger | PreparedLedger): "stocks" | "crypto" | null {
  return dominantClassOf(ledgerPass("kind" in ledger ? ledger : prepareLedger(ledger, true)));
}

/** The completed round trips in closing order (the grade's journal: what the round-trip metrics count). */
export function listRoundTrips(ledger: Ledger | PreparedLedger): RoundTrip[] {
  const c = "kind" in ledger ? ledger : prepareLedger(ledger, true);
  return roundTripList(c, ledgerPass(c));
}

/** Crypto's share of the capital held over the curve's days (the rest stocks, ETFs and options); null when nothing was held. */
export function cryptoShare(ledger: Ledger | PreparedLedger): number | null {
  return cryptoShareOf(ledgerPass("kind" in ledger ? ledger : prepareLedger(ledger, true)));
}
