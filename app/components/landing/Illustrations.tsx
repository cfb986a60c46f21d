import { gradeTiers } from "~/content/landing";
import { cardMetric, METRICS } from "~/lib/metrics";
import { DIMENSION_LABELS, DIMENSIONS, type Dimension } from "~/lib/vocabulary";
import { BadgeShield, Stars } from "../GradeBadge";

/** The badge cycling through the five tiers, 2 s each, in CSS (stops under reduced motion). */
export function RotatingBadge() {
  return (
    <div className="rotating-badge" role="img" aria-label="Grade badges from Bronze to Legend">
      {gradeTiers.map((t, i) => (
        <div key={t.name} className={`rotating-badge-item tier-${t.name}`} style={{ animationDelay: `${i * 2}s` }}>
          <BadgeShield tier={t.name} size={120} />
          <strong>{t.name}</strong>
          <Stars count={i + 1} label={`${t.name}`} />
        </div>
      ))}
    </div>
  );
}

/**
 * A sample performance card drawn from our own components (the real PNG is rendered by the server),
 * its figures formatted as the card formats them.
 */
export function SampleCard() {
  const stars: Record<Dimension, number> = {
    profitability: 5,
    riskControl: 4,
    consistency: 4,
    discipline: 5,
    experience: 3,
  };
  const dims = DIMENSIONS.map((d) => [DIMENSION_LABELS[d], stars[d]] as const);
  return (
    <figure className="sample-card tier-Master" aria-label="Sample performance card">
      <div className="sample-card-head">
        <span className="avatar avatar-initials" style={{ width: 44, height: 44 }} aria-hidden="true">
          AK
        </span>
        <div>
          <strong>Alex Kim</strong>
          <div className="muted">@alexk · graded Nov 2026</div>
        </div>
        <span className="grade-badge tier-Master" style={{ marginLeft: "auto" }}>
          <BadgeShield tier="Master" size={22} /> Master
        </span>
      </div>
      <div className="sample-card-figures">
        <div>
          <span className="muted">{METRICS.twr.label}</span>
          <strong className="pos">{cardMetric("twr", 0.384)}</strong>
        </div>
        <div>
          <span className="muted">{METRICS.maxDrawdown.label}</span>
          <strong>{cardMetric("maxDrawdown", -0.091)}</strong>
        </div>
        <div>
          <span className="muted">{METRICS.winRate.label}</span>
          <strong>{cardMetric("winRate", 0.61)}</strong>
        </div>
      </div>
      <ul className="sample-card-dims">
        {dims.map(([name, n]) => (
          <li key={name}>
            <span>{name}</span>
            <Stars count={n} />
          </li>
        ))}
      </ul>
      <figcaption className="muted">Sample card · verification code GR-7Q4K-2M</figcaption>
    </figure>
  );
}
