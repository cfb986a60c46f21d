import type { MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { Link } from "@remix-run/react";
import { guideSteps } from "~/content/guide";
import { BadgeShield } from "~/components/GradeBadge";
import { TIERS } from "~/lib/vocabulary";

export const meta: MetaFunction = (args) =>
  seo(args, { title: "Guide · Grader", description: "Step by step: link an account and get your trading grade." });

export default function Guide() {
  return (
    <div className="page narrow">
      <h1>How to get your grade</h1>
      <ol className="guide">
        {guideSteps.map((step, i) => (
          <li key={step.title} className="card guide-step">
            <div className="guide-illustration" aria-hidden="true">
              <BadgeShield tier={TIERS[i % TIERS.length]!} size={44} />
            </div>
            <div>
              <h2>
                {i + 1}. {step.title}
              </h2>
              <p className="muted">{step.text}</p>
            </div>
          </li>
        ))}
      </ol>
      <Link to="/signup" className="btn btn-primary">
        Join us for free
      </Link>
    </div>
  );
}
