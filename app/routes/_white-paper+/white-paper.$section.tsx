import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { findSection, sections } from "~/content/white-paper";
import { ensureFound } from "~/server/http/guards.server";

export async function loader({ params }: LoaderFunctionArgs) {
  const section = ensureFound(findSection(params.section ?? ""));
  const index = sections.indexOf(section);
  const link = (i: number) => (sections[i] ? { slug: sections[i]!.slug, title: sections[i]!.title } : null);
  return json({ section, index, prev: link(index - 1), next: link(index + 1) });
}

export const meta: MetaFunction<typeof loader> = (args) =>
  seo(args, {
    title: args.data ? `${args.data.section.title} · White Paper · Grader` : "White Paper · Grader",
    description: args.data?.section.summary,
    type: "article",
  });

export default function WhitePaperSection() {
  const { section, index, prev, next } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <p className="muted small">
        <Link to="/white-paper">White Paper</Link> · Section {index + 1} of {sections.length}
      </p>
      <article className="prose">
        <h1>{section.title}</h1>
        <p className="lead">{section.summary}</p>
        {/* Trusted, bundled content (app/content), never user input. */}
        <div dangerouslySetInnerHTML={{ __html: section.html }} />
      </article>
      <nav className="pager" aria-label="Sections">
        {prev ? (
          <Link to={`/white-paper/${prev.slug}`} rel="prev">
            ← {prev.title}
          </Link>
        ) : (
          <span />
        )}
        {next ? (
          <Link to={`/white-paper/${next.slug}`} rel="next">
            {next.title} →
          </Link>
        ) : (
          <span />
        )}
      </nav>
    </div>
  );
}
