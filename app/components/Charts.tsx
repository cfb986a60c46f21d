type Point = { x: string; y: number };

const W = 640;
const H = 220;
const PAD = { top: 12, right: 12, bottom: 26, left: 52 };

/** Keeps at most `max` points (the first, the last and evenly spaced ones between). */
export function downsample<T>(points: T[], max = 200): T[] {
  if (points.length <= max) return points;
  const step = (points.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => points[Math.round(i * step)]!);
}

/**
 * A server-rendered SVG line (or area) chart: readable without JavaScript, with an accessible
 * title and description that state what it shows in words.
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
}: {
  id: string;
  title: string;
  description: string;
  points: Point[];
  format: (v: number) => string;
  area?: boolean;
  tone?: "accent" | "danger";
  /** A second series on the same scale and days (e.g. the benchmark), drawn dashed. */
  compare?: { label: string; points: Point[] };
}) {
  const data = downsample(points);
  if (data.length < 2) return <p className="muted">Not enough history to draw {title.toLowerCase()} yet.</p>;
  const other = compare && compare.points.length === points.length ? downsample(compare.points) : null;
  const ys = data.map((p) => p.y).concat(other ? other.map((p) => p.y) : []);
  let min = Math.min(...ys);
  let max = Math.max(...ys);
  if (min === max) {
    min -= 1;
    max += 1;
  }
  const x = (i: number) => PAD.left + (i / (data.length - 1)) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - (v - min) / (max - min)) * (H - PAD.top - PAD.bottom);
  const line = data.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.y).toFixed(1)}`).join("");
  const baseline = y(area ? Math.min(max, Math.max(min, 0)) : min);
  const fill = `${line}L${x(data.length - 1).toFixed(1)},${baseline.toFixed(1)}L${x(0).toFixed(1)},${baseline.toFixed(1)}Z`;
  const colour = tone === "danger" ? "var(--danger)" : "var(--accent)";
  const ticks = [max, (max + min) / 2, min];
  return (
    <svg className="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} preserveAspectRatio="none">
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{description}</desc>
      {ticks.map((t) => (
        <g key={t}>
          <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} stroke="var(--border)" strokeDasharray="3 4" />
          <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" fontSize="11" fill="var(--muted)">
            {format(t)}
          </text>
        </g>
      ))}
      {area ? <path d={fill} fill={colour} opacity="0.18" /> : null}
      {other ? (
        <path
          d={other.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.y).toFixed(1)}`).join("")}
          fill="none"
          stroke="var(--muted)"
          strokeWidth="1.5"
          strokeDasharray="5 4"
        />
      ) : null}
      <path d={line} fill="none" stroke={colour} strokeWidth="2" />
      {other ? (
        <text x={W - PAD.right} y={PAD.top + 10} fontSize="11" fill="var(--muted)" textAnchor="end">
          — you · - - {compare!.label}
        </text>
      ) : null}
      <text x={PAD.left} y={H - 6} fontSize="11" fill="var(--muted)">
        {data[0]!.x}
      </text>
      <text x={W - PAD.right} y={H - 6} fontSize="11" fill="var(--muted)" textAnchor="end">
        {data[data.length - 1]!.x}
      </text>
    </svg>
  );
}
