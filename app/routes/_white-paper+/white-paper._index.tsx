import type { MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { Link } from "@remix-run/react";
import { sections } from "~/content/white-paper";

export const meta: MetaFunction = (args) =>
  seo(args, {
    title: "White Paper · Grader",
    description: "How Grader grades trading performance, and where the $GRADER points program is going.",
  });

export default function WhitePaperIndex() {
  return (
    <div className="page">
      <h1>White Paper</h1>
      <p className="lead">How Grader measures trading performance, why it can be trusted, and what is planned.</p>
      <nav aria-label="Contents" className="card toc">
        <h2>Contents</h2>
        <ol>
          {sections.map((s) => (
            <li key={s.slug}>
              <Link to={`/white-paper/${s.slug}`}>{s.title}</Link>
              <span className="muted small"> — {s.summary}</span>
            </li>
          ))}
        </ol>
      </nav>
      <p>
        Every figure on a Stats tab, in one line each: <Link to="/glossary">the glossary</Link>.
      </p>
    </div>
  );
}
