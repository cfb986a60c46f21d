import type { LegalPage } from "~/content/legal";
import { useRootData } from "~/lib/use-root-data";

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** /privacy and /terms: trusted, bundled text with the configured support address filled in. */
export function LegalArticle({ page }: { page: LegalPage }) {
  const supportEmail = useRootData()?.ENV.SUPPORT_EMAIL ?? "";
  return (
    <div className="page">
      <article className="prose">
        <h1>{page.title}</h1>
        <p className="muted">{`Last updated ${page.updated}`}</p>
        <div dangerouslySetInnerHTML={{ __html: page.html.replaceAll("{supportEmail}", escapeHtml(supportEmail)) }} />
      </article>
    </div>
  );
}
