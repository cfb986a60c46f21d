const plain = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/** SPEC §5: English grouping; K from 10,000 and M from 1,000,000 (B beyond, same rule). */
export function formatCompact(value: number): string {
  if (!Number.isFinite(value)) return "—";
  const abs = Math.abs(value);
  const sign = value < 0 ? "-" : "";
  const scaled = (n: number, suffix: string) => `${sign}${trim(abs / n)}${suffix}`;
  if (abs >= 1_000_000_000) return scaled(1_000_000_000, "B");
  if (abs >= 1_000_000) return scaled(1_000_000, "M");
  if (abs >= 10_000) return scaled(1_000, "K");
  return plain.format(value);
}

// One decimal, floored so 999,999 shows as 999.9K rather than rounding up to "1000K".
function trim(n: number): string {
  const floored = Math.floor(n * 10) / 10;
  return floored.toFixed(1).replace(/\.0$/, "");
}

export function formatNumber(value: number, digits = 2): string {
  return new Intl.NumberFormat("en-US", { maximumFractionDigits: digits }).format(value);
}

export function formatPercent(fraction: number, digits = 1): string {
  if (!Number.isFinite(fraction)) return "—";
  return `${(fraction * 100).toFixed(digits)}%`;
}

export function formatUsd(value: number): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 2 }).format(value);
}
