import { formatScore } from "~/lib/format-number";
import type { Tier } from "~/lib/vocabulary";

export function Stars({ count, label }: { count: number; label?: string }) {
  const n = Math.max(0, Math.min(5, Math.round(count)));
  return (
    <span className="stars" role="img" aria-label={label ?? `${n} out of 5 stars`}>
      {"★".repeat(n)}
      <span className="stars-off">{"★".repeat(5 - n)}</span>
    </span>
  );
}

/** The tier in its colour with its 1–5 stars. */
export function GradeBadge({ tier, stars, size = "md" }: { tier: Tier; stars: number; size?: "md" | "lg" }) {
  return (
    <span className={`grade-badge tier-${tier} badge-${size}`}>
      <BadgeShield tier={tier} size={size === "lg" ? 40 : 22} />
      <span className="grade-tier">{tier}</span>
      <Stars count={stars} />
    </span>
  );
}

/** A trader's current grade in a list of traders: tier and score, or a plain word before a first grade. */
export function TraderGrade({ tier, score }: { tier: Tier | null; score: number | null }) {
  if (!tier) return <span className="muted small trader-grade">Not graded yet</span>;
  return (
    <span className={`grade-badge tier-${tier} trader-grade`}>
      <BadgeShield tier={tier} size={18} />
      <span className="grade-tier">{tier}</span> <span className="small">{formatScore(score)}</span>
    </span>
  );
}

export function BadgeShield({ tier, size = 64 }: { tier: Tier; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false" className={`tier-${tier}`}>
      <path d="M32 3 57 12v18c0 16-11 27-25 31C18 57 7 46 7 30V12z" fill="var(--tier)" opacity="0.18" />
      <path
        d="M32 3 57 12v18c0 16-11 27-25 31C18 57 7 46 7 30V12z"
        fill="none"
        stroke="var(--tier)"
        strokeWidth="4"
        strokeLinejoin="round"
      />
      <path d="m32 17 4.4 9 9.9 1.4-7.2 7 1.7 9.8L32 39.6l-8.8 4.6 1.7-9.8-7.2-7 9.9-1.4z" fill="var(--tier)" />
    </svg>
  );
}
