import { Link } from "@remix-run/react";
import {
  features,
  gradeTiers,
  hero,
  howItWorks,
  roadmap,
  ROADMAP_STATUS_LABELS,
  supportedPlatforms,
  token,
} from "~/content/landing";
import { BadgeShield } from "../GradeBadge";
import { RotatingBadge, SampleCard } from "./Illustrations";

type Props = { startHref: string; supportEmail: string };

function Hero({ startHref, mobile }: { startHref: string; mobile?: boolean }) {
  return (
    <section className="hero">
      <div className="hero-copy">
        <h1>
          {hero.title}
          <span className="hero-sub">{hero.subtitle}</span>
        </h1>
        <p className="lead">{hero.blurb}</p>
        <Link to={startHref} className="btn btn-primary btn-lg">
          {hero.cta}
        </Link>
      </div>
      <div className="hero-art">
        {/* A phone shows the badge cycling through the tiers; a desktop the sample card, whose own
            badge names its tier (a rotating Bronze beside a Master card read as a contradiction). */}
        {mobile ? <RotatingBadge /> : <SampleCard />}
      </div>
    </section>
  );
}

function HowItWorks() {
  return (
    <section id="how-it-works" className="section">
      <h2>How it works</h2>
      <ol className="steps">
        {howItWorks.map((s, i) => (
          <li key={s.title} className="step" style={{ ["--i" as string]: i }}>
            <span className="step-num" aria-hidden="true">
              {i + 1}
            </span>
            <h3>{s.title}</h3>
            <p className="muted">{s.description}</p>
            {i < howItWorks.length - 1 ? <span className="step-arrow" aria-hidden="true" /> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

function Platforms() {
  return (
    <section id="platforms" className="section">
      <h2>Supported Platforms</h2>
      <div className="grid">
        {supportedPlatforms.map((p) => (
          <article key={p.name} className="card">
            <h3>{p.name}</h3>
            <p className="muted">{p.description}</p>
            {p.examples.length ? <p className="small">{p.examples.join(" · ")}</p> : null}
            {p.desktopOnly ? <span className="tag">Desktop only</span> : null}
          </article>
        ))}
      </div>
    </section>
  );
}

function Features() {
  return (
    <section id="features" className="section">
      <h2>Features</h2>
      <div className="grid">
        {features.map((f) => (
          <article key={f.title} className="card">
            <h3>
              {f.title} {f.comingSoon ? <span className="tag">Coming soon</span> : null}
            </h3>
            <p className="muted">{f.description}</p>
          </article>
        ))}
      </div>
    </section>
  );
}

function Tiers() {
  return (
    <section id="grades" className="section">
      <h2>Five grades, earned not bought</h2>
      <ul className="tiers">
        {gradeTiers.map((t) => (
          <li key={t.name} className={`tier-card tier-${t.name}`}>
            <BadgeShield tier={t.name} size={48} />
            <strong>{t.name}</strong>
            <span className="muted small">{t.meaning}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Roadmap() {
  return (
    <section id="roadmap" className="section">
      <h2>Roadmap</h2>
      <ol className="roadmap">
        {roadmap.map((r, i) => (
          <li
            key={r.title}
            data-status={r.status}
            className="roadmap-item"
            style={{ animationDelay: `${Math.round((i * 700) / (roadmap.length - 1))}ms` }}
          >
            <span className="roadmap-q">
              {r.when} <span className="tag">{ROADMAP_STATUS_LABELS[r.status]}</span>
            </span>
            <h3>{r.title}</h3>
            <p className="muted">{r.description}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

function Token() {
  return (
    <section id="token" className="section card token">
      <h2>
        {token.name} <span className="tag">Planned</span>
      </h2>
      <p>{token.headline}</p>
      <ul className="grid plain">
        {token.perks.map((p) => (
          <li key={p.title}>
            <strong>{p.title}</strong>
            <p className="muted small">{p.description}</p>
          </li>
        ))}
      </ul>
      <p className="muted small">{token.note}</p>
    </section>
  );
}

function Contact({ supportEmail }: { supportEmail: string }) {
  return (
    <section id="contact-container" className="section card contact-block">
      <h2>Contact us</h2>
      <p>
        Questions, partnerships or press: write to <a href={`mailto:${supportEmail}`}>{supportEmail}</a> or use the{" "}
        <Link to="/contact">contact form</Link>.
      </p>
    </section>
  );
}

export function DesktopLanding({ startHref, supportEmail }: Props) {
  return (
    <div className="landing landing-desktop" data-variant="desktop">
      <Hero startHref={startHref} />
      <HowItWorks />
      <Platforms />
      <Features />
      <Tiers />
      <Roadmap />
      <Token />
      <Contact supportEmail={supportEmail} />
    </div>
  );
}

export function MobileLanding({ startHref, supportEmail }: Props) {
  return (
    <div className="landing landing-mobile" data-variant="mobile">
      <Hero startHref={startHref} mobile />
      <HowItWorks />
      <Features />
      <Platforms />
      <Roadmap />
      <Tiers />
      <Contact supportEmail={supportEmail} />
    </div>
  );
}
