// Axis ticks for our server-rendered SVG charts: "nice" round values (1, 2, 5 × 10^k steps, the
// rule d3-scale's ticks use) and date labels at month or year starts. Small enough to keep here.

/** Round tick values covering [min, max], about `count` of them. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (min === max) return [min];
  if (min > max) [min, max] = [max, min];
  const raw = (max - min) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  const step = (f >= 7.5 ? 10 : f >= 3.5 ? 5 : f >= 1.5 ? 2 : 1) * power;
  const out: number[] = [];
  // Integer multiples avoid drift (0.1 + 0.2 …); tiny values are snapped to 0.
  for (let i = Math.ceil(min / step - 1e-9); i * step <= max + step * 1e-9; i++) {
    const v = i * step;
    out.push(Math.abs(v) < step * 1e-9 ? 0 : Number(v.toPrecision(12)));
  }
  return out;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * Indexes of `dates` (YYYY-MM-DD, ascending) where a labelled tick goes: the first day of a month,
 * every k months so that at most `max` labels show; years alone when months would be too many.
 */
export function dateTicks(dates: string[], max = 6): { i: number; label: string }[] {
  if (dates.length === 0) return [];
  const starts: number[] = [];
  for (let i = 1; i < dates.length; i++) if (dates[i]!.slice(0, 7) !== dates[i - 1]!.slice(0, 7)) starts.push(i);
  if (starts.length === 0) {
    // Under a month: the first, middle and last day.
    const picks = [...new Set([0, Math.floor((dates.length - 1) / 2), dates.length - 1])];
    return picks.map((i) => ({
      i,
      label: `${MONTHS[Number(dates[i]!.slice(5, 7)) - 1]} ${Number(dates[i]!.slice(8, 10))}`,
    }));
  }
  const yearStarts = starts.filter((i) => dates[i]!.slice(5, 7) === "01");
  if (starts.length > max * 12 && yearStarts.length >= 2) {
    const k = Math.ceil(yearStarts.length / max);
    return yearStarts.filter((_, n) => n % k === 0).map((i) => ({ i, label: dates[i]!.slice(0, 4) }));
  }
  const k = [1, 2, 3, 6, 12].find((s) => Math.ceil(starts.length / s) <= max) ?? 12;
  return starts
    .filter((i) => (Number(dates[i]!.slice(5, 7)) - 1) % k === 0)
    .map((i) => {
      const m = Number(dates[i]!.slice(5, 7)) - 1;
      return { i, label: m === 0 || k >= 12 ? `${MONTHS[m]} ${dates[i]!.slice(0, 4)}` : MONTHS[m]! };
    });
}

/**
 * Which of `values` a chart draws, ascending: all of them up to `max`, else the first, the last and,
 * in each of about max ÷ 2 equal runs between, the lowest and the highest. The drawn line keeps
 * every peak and trough, so a chart's low is the figure beside it (a max drawdown), never a
 * sample's.
 */
export function sampleIndexes(values: readonly number[], max = 200): number[] {
  const n = values.length;
  if (n <= max) return Array.from({ length: n }, (_, i) => i);
  const buckets = Math.max(1, Math.floor((max - 2) / 2));
  const out = [0];
  const inner = n - 2;
  for (let b = 0; b < buckets; b++) {
    const from = 1 + Math.floor((b * inner) / buckets);
    const to = 1 + Math.floor(((b + 1) * inner) / buckets); // exclusive
    if (from >= to) continue;
    let lo = from;
    let hi = from;
    for (let i = from + 1; i < to; i++) {
      if (values[i]! < values[lo]!) lo = i;
      if (values[i]! > values[hi]!) hi = i;
    }
    if (lo === hi) out.push(lo);
    else out.push(Math.min(lo, hi), Math.max(lo, hi));
  }
  out.push(n - 1);
  return out;
}
