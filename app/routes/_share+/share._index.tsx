import { json, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { INSTAGRAM_MESSAGE, proxyDownloadPath, shareIntents, SHARE_TEXT } from "~/components/ShareModal";
import { BrandIcon } from "~/components/BrandIcon";
import { SelfReportedNote } from "~/components/SelfReported";
import { seo } from "~/lib/seo";
import { ensureCard } from "~/server/grades/cards.server";
import { getEnv } from "~/server/platform/env.server";
import { requireUser } from "~/server/http/session.server";

// The share modal as a page: where the header's Share link leads without JavaScript. The card,
// the network links and download links (both formats) work as plain links.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [link, story] = await Promise.all([ensureCard(user.id, "link"), ensureCard(user.id, "story")]);
  // PRODUCT §5: sharing without a grade goes to /evaluate.
  if (!link || !story) throw redirect("/evaluate?share=no-grade");
  return json({
    userId: user.id,
    cardPath: link.path,
    shareUrl: link.url,
    storyUrl: story.url,
    publicUrl: getEnv().PUBLIC_URL,
    selfReported: link.data.selfReported,
  });
}

export const meta: MetaFunction = (args) => seo(args, { title: "Share your performance card · Grader", noindex: true });

export default function SharePage() {
  const d = useLoaderData<typeof loader>();
  return (
    <div className="page narrow" style={{ maxWidth: 720 }}>
      <h1>Share your performance card</h1>
      {d.selfReported ? <SelfReportedNote /> : null}
      <img
        src={d.cardPath}
        width={1200}
        height={630}
        alt="Your performance card"
        style={{ width: "100%", height: "auto", borderRadius: 12 }}
      />
      <p className="muted small">{SHARE_TEXT}</p>
      <h2>Share on</h2>
      <ul className="share-links">
        {shareIntents(d.publicUrl, d.userId).map((n) => (
          <li key={n.network}>
            <a href={n.href} target="_blank" rel="noopener noreferrer" aria-label={n.label} title={n.label}>
              <BrandIcon network={n.network} size={28} />
            </a>
          </li>
        ))}
        <li className="share-links-note">
          <BrandIcon network="instagram" size={28} /> <span className="visually-hidden">Instagram: </span>
          <span className="muted">{INSTAGRAM_MESSAGE}</span>
        </li>
      </ul>
      <h2>Download</h2>
      <p style={{ display: "flex", gap: "0.6rem", flexWrap: "wrap" }}>
        <a className="btn btn-primary btn-wrap" href={proxyDownloadPath(d.shareUrl)} download>
          Download card (1200×630)
        </a>
        <a className="btn btn-ghost btn-wrap" href={proxyDownloadPath(d.storyUrl)} download>
          Download for Instagram (1080×1350)
        </a>
      </p>
      <p>
        <Link to={`/share/open_graph/${d.userId}`}>Your public card page</Link>
      </p>
    </div>
  );
}
