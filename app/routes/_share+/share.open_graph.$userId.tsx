import { DemoDataNote } from "~/components/DemoBanner";
import { SelfReportedNote } from "~/components/SelfReported";
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Stars } from "~/components/GradeBadge";
import { formatScore } from "~/lib/format-number";
import { seo } from "~/lib/seo";
import { ensureCard } from "~/server/grades/cards.server";
import { parseId } from "~/server/http/guards.server";
import { trackLoaderView } from "~/server/community/page-views.server";
import { unlinkedDisclosureFor } from "~/server/linking/unlinked-accounts.server";
import { DIMENSION_LABELS, DIMENSIONS } from "~/lib/vocabulary";

// The public page every shared link points at (PRODUCT §7): Open Graph and Twitter tags for the
// unfurl, and for people who click through the card, the grade summary, the verification code
// and a way to get their own grade. `from` is only counted (cleaned) as the view's source.
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const userId = parseId(params.userId);
  const card = await ensureCard(userId, "link");
  if (!card) throw new Response("Not Found", { status: 404 });
  await trackLoaderView(request, context, null);
  const d = card.data;
  return json(
    {
      userId,
      name: d.name,
      username: d.username,
      tier: d.tier,
      score: formatScore(d.score),
      stars: d.stars,
      figures: d.figures,
      date: d.date,
      code: d.code,
      demo: d.demo,
      selfReported: d.selfReported,
      unlinked: await unlinkedDisclosureFor(d.code),
      cardPath: card.path,
      width: card.width,
      height: card.height,
    },
    // No shared caching: the page's header shows the visitor's own session.
    { headers: { "Cache-Control": "private, no-cache" } },
  );
}

export const meta: MetaFunction<typeof loader> = (args) => {
  const d = args.data;
  if (!d) return seo(args, { title: "Nothing to see here! · Grader", noindex: true });
  const title = `${d.name} is graded ${d.tier} on Grader`;
  const description = `${d.demo ? "Demo data. " : ""}${d.selfReported ? "Self-reported. " : ""}${d.tier}, ${d.score}/100, graded ${d.date}. Verification code ${d.code}. Think you can beat it? Get your own grade.`;
  const alt = `${d.name}'s Grader performance card: ${d.tier}, ${d.score}/100`;
  return [
    ...seo(args, { title, description, image: d.cardPath, type: "website" }),
    { property: "og:image:type", content: "image/png" },
    { property: "og:image:width", content: String(d.width) },
    { property: "og:image:height", content: String(d.height) },
    { property: "og:image:alt", content: alt },
    { name: "twitter:image:alt", content: alt },
  ];
};

export default function SharedCard() {
  const d = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <h1>{`${d.name}'s performance card`}</h1>
      {d.demo ? <DemoDataNote /> : null}
      {d.selfReported ? <SelfReportedNote /> : null}
      <img
        src={d.cardPath}
        width={d.width}
        height={d.height}
        alt={`${d.name}'s Grader performance card: ${d.tier}, ${d.score}/100`}
        style={{ width: "100%", maxWidth: d.width, height: "auto", borderRadius: 16 }}
      />
      <section className="card" style={{ marginTop: "1.5rem" }} aria-labelledby="summary-title">
        <h2 id="summary-title">Grade summary</h2>
        <p>
          {/* The page's tier colours (app.css), lighter than the card's, keep contrast on the dark page. */}
          <strong className={`tier-${d.tier} tier-text`}>{d.tier}</strong> · {d.score}/100 ·{" "}
          <Stars count={d.stars.overall} /> · graded {d.date}
        </p>
        <ul>
          {DIMENSIONS.map((key) => (
            <li key={key}>
              {DIMENSION_LABELS[key]}: <Stars count={d.stars[key]} />
            </li>
          ))}
        </ul>
        <dl className="figures">
          {d.figures.map((f) => (
            <div key={f.label}>
              <dt className="muted">{f.label}</dt>
              <dd>{f.value}</dd>
            </div>
          ))}
        </dl>
        {d.unlinked ? <p className="tag">{d.unlinked}</p> : null}
        <p>
          Verification code <Link to={`/verify/${d.code}`}>{d.code}</Link>: check that this card matches a real
          evaluation.
        </p>
      </section>
      <p style={{ marginTop: "1.5rem" }}>
        <Link to="/evaluate" className="btn btn-primary">
          Get your grade
        </Link>
      </p>
    </div>
  );
}
