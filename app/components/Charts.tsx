import { useState, type PointerEvent } from "react";
import { dateTicks, niceTicks, sampleIndexes } from "~/lib/chart-scale";

type Point = { x: string; y: number };

/** The points a chart draws (sampleIndexes). */
export function downsample<T extends { y: number }>(points: T[], max = 200): T[] {
  return sampleIndexes(
    points.map((p) => p.y),
    max,
  ).map((i) => points[i]!);
}

/**
 * A server-rendered SVG line (or area) chart with labelled axes (round values on the left, month
 * or year starts below): readable without JavaScript, with an accessible title and a description
 * that states what it shows in words.
 */
export function LineChart({
  id,
  title,
  description,
  points,
  format,
  area,
  tone = "accent",
  compare,
  yLabel,
}: {
  id: string;
  title: string;
  description: string;
  /** `x` is a day, YYYY-MM-DD. */
  points: Point[];
  format: (v: number) => string;
  area?: boolean;
  tone?: "accent" | "danger";
  /** A second series on the same scale and days (e.g. the benchmark), drawn dashed. */
  compare?: { label: string; points: Point[] };
  /** What the vertical axis measures, written along it. */
  yLabel?: string;
}) {
  // With JavaScript, pointing at the plot shows that day's figures (the server page has no hover).
  const [hover, setHover] = useState<number | null>(null);
  // The benchmark is drawn at the same days as the line (its own extremes may fall between them).
  const kept = sampleIndexes(points.map((p) => p.y));
  const data = kept.map((i) => points[i]!);
  if (data.length < 2) return <p className="muted">Not enough history to draw {title.toLowerCase()} yet.</p>;
  const other = compare && compare.points.length === points.length ? kept.map((i) => compare.points[i]!) : null;
  const ys = data.map((p) => p.y).concat(other ? other.map((p) => p.y) : []);
  let min = Math.min(...ys);
  let max = Math.max(...ys);
  if (area) {
    min = Math.min(min, 0);
    max = Math.max(max, 0);
  }
  if (min === max) {
    min -= 1;
    max += 1;
  }
  const ticks = niceTicks(min, max, 4);
  // The scale ends on round values one step beyond the data, so every line stays inside the labelled range.
  const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : 0;
  if (step > 0) {
    if (ticks[0]! > min + 1e-12) ticks.unshift(ticks[0]! - step);
    if (ticks.at(-1)! < max - 1e-12) ticks.push(ticks.at(-1)! + step);
    min = ticks[0]!;
    max = ticks.at(-1)!;
  }
  // The plot is drawn in a 1000 × 1000 box stretched to the figure; labels are HTML, so their
  // size does not scale with the width (readable on a 375 px phone and a wide screen alike).
  // Each drawn point stands at its own day (the kept days are not evenly spaced).
  const x = (i: number) => (kept[i]! / (points.length - 1)) * 1000;
  const y = (v: number) => (1 - (v - min) / (max - min)) * 1000;
  const path = (pts: Point[]) => pts.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.y).toFixed(1)}`).join("");
  const line = path(data);
  const baseline = y(area ? Math.min(max, Math.max(min, 0)) : min);
  const fill = `${line}L1000,${baseline.toFixed(1)}L0,${baseline.toFixed(1)}Z`;
  const colour = tone === "danger" ? "var(--danger)" : "var(--accent)";
  const xTicks = dateTicks(data.map((p) => p.x));
  const onMove = (e: PointerEvent<HTMLDivElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    const f = Math.min(1, Math.max(0, (e.clientX - box.left) / box.width));
    const at = f * (points.length - 1);
    let best = 0;
    for (let i = 1; i < kept.length; i++) if (Math.abs(kept[i]! - at) < Math.abs(kept[best]! - at)) best = i;
    setHover(best);
  };
  return (
    <figure className={`chart-figure${yLabel ? " with-y-label" : ""}`}>
      {yLabel ? (
        <span className="chart-y-label" aria-hidden="true">
          {yLabel}
        </span>
      ) : null}
      <div className="chart-plot" onPointerMove={onMove} onPointerLeave={() => setHover(null)}>
        <svg
          className="chart"
          viewBox="0 0 1000 1000"
          preserveAspectRatio="none"
          role="img"
          aria-labelledby={`${id}-title ${id}-desc`}
        >
          <title id={`${id}-title`}>{title}</title>
          <desc id={`${id}-desc`}>{description}</desc>
          {ticks.map((t) => (
            <line
              key={t}
              x1={0}
              x2={1000}
              y1={y(t)}
              y2={y(t)}
              stroke="var(--border)"
              strokeDasharray="3 4"
              vectorEffect="non-scaling-stroke"
            />
          ))}
          {xTicks.map((t) => (
            <line
              key={t.i}
              x1={x(t.i)}
              x2={x(t.i)}
              y1={0}
              y2={1000}
              stroke="var(--border)"
              strokeOpacity="0.5"
              vectorEffect="non-scaling-stroke"
            />
          ))}
          {area ? <path d={fill} fill={colour} opacity="0.18" /> : null}
          {other ? (
            <path
              d={path(other)}
              fill="none"
              stroke="var(--muted)"
              strokeWidth="1.5"
              strokeDasharray="5 4"
              vectorEffect="non-scaling-stroke"
            />
          ) : null}
          <path d={line} fill="none" stroke={colour} strokeWidth="2" vectorEffect="non-scaling-stroke" />
          {hover !== null ? (
            <line
              x1={x(hover)}
              x2={x(hover)}
              y1={0}
              y2={1000}
              stroke="var(--text)"
              strokeOpacity="0.6"
              vectorEffect="non-scaling-stroke"
            />
          ) : null}
        </svg>
        {hover !== null ? (
          <span
            className={`chart-hover${hover > (data.length - 1) / 2 ? " left" : ""}`}
            style={{ left: `${x(hover) / 10}%` }}
            aria-hidden="true"
          >
            <strong>{data[hover]!.x}</strong> {format(data[hover]!.y)}
            {other ? (
              <span className="muted">
                {" "}
                · {compare!.label} {format(other[hover]!.y)}
              </span>
            ) : null}
          </span>
        ) : null}
        <div className="chart-axis" aria-hidden="true">
          {ticks.map((t) => (
            <span key={t} className="y-tick" style={{ top: `${y(t) / 10}%` }}>
              {format(t)}
            </span>
          ))}
          {xTicks.map((t, n) => (
            // Every other date label gives way on a narrow screen (CSS), so none overlap.
            <span key={t.i} className={n % 2 ? "x-tick minor" : "x-tick"} style={{ left: `${x(t.i) / 10}%` }}>
              {t.label}
            </span>
          ))}
        </div>
      </div>
      {other ? (
        <figcaption className="chart-legend small">
          <span className="nowrap">
            <span className="swatch" style={{ borderColor: colour }} aria-hidden="true" /> You
          </span>
          <span className="nowrap">
            <span className="swatch dashed" aria-hidden="true" /> {compare!.label}, on the same scale
          </span>
        </figcaption>
      ) : null}
    </figure>
  );
}
