import type { MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { privacy as page } from "~/content/legal";
import { useRootData } from "~/lib/use-root-data";

export const meta: MetaFunction = (args) => seo(args, { title: `${page.title} · Grader`, description: page.description });

export default function Legal() {
  const supportEmail = useRootData()?.ENV.SUPPORT_EMAIL ?? "";
  return (
    <div className="page">
      <article className="prose">
        <h1>{page.title}</h1>
        <p className="muted">Last updated {page.updated}</p>
        {/* Trusted, bundled content; the support address comes from our own configuration. */}
        <div dangerouslySetInnerHTML={{ __html: page.html.replaceAll("{supportEmail}", escapeHtml(supportEmail)) }} />
      </article>
    </div>
  );
}

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
