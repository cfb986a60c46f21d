// The daily curve the report draws: equity, the flow-adjusted index, drawdown, the day's P&L, and
// the benchmark's index when there is one.
import type { PassResult } from "./pass";
import type { BenchmarkSeries } from "./stats";
import { formatIsoDay } from "./time";
import type { CurvePoint } from "./types";

export function curveOf(pass: PassResult, drawdown: Float64Array, bench: BenchmarkSeries | null): CurvePoint[] {
  const curve: CurvePoint[] = new Array(pass.days.length);
  for (let i = 0; i < pass.days.length; i++) {
    const pnl = pass.equity[i] - (i > 0 ? pass.equity[i - 1] : 0) - pass.dayFlow[i];
    const point: CurvePoint = {
      date: formatIsoDay(pass.days[i]),
      equity: pass.equity[i],
      index: pass.index[i],
      drawdown: drawdown[i],
      pnl,
    };
    if (bench !== null) point.benchmark = bench.index[i];
    curve[i] = point;
  }
  return curve;
}
