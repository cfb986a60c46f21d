import { DemoDataNote } from "~/components/DemoBanner";
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { displayName } from "~/lib/display-name";
import { NAMELESS_TRADER } from "~/lib/product";
import { seo } from "~/lib/seo";
import { cardDate } from "~/server/cards.server";
import { getDb } from "~/server/db.server";

// The code printed on every card leads here: which evaluation it was, so a viewer can tell a real
// card from an edited screenshot. Public; shows no money figures.
export async function loader({ params }: LoaderFunctionArgs) {
  const code = (params.code ?? "").trim().toUpperCase();
  if (!/^GR-[0-9A-Z]{4}-[0-9A-Z]{4}$/.test(code)) throw new Response("Not Found", { status: 404 });
  const db = await getDb();
  const row = await db
    .selectFrom("evaluations")
    .innerJoin("users", "users.id", "evaluations.user_id")
    .select([
      "evaluations.id",
      "evaluations.created_at",
      "evaluations.engine_version",
      "evaluations.ledger_digest",
      "evaluations.tier",
      "evaluations.score",
      "evaluations.verification_code",
      "evaluations.demo",
      "users.id as user_id",
      "users.username",
      "users.first_name",
      "users.last_name",
      "users.name",
      "users.current_evaluation_id",
    ])
    .where("evaluations.verification_code", "=", code)
    .executeTakeFirst();
  if (!row) throw new Response("Not Found", { status: 404 });
  const createdAt = new Date(row.created_at).toISOString();
  return json({
    code: row.verification_code,
    createdAt,
    date: cardDate(createdAt),
    engineVersion: row.engine_version,
    ledgerDigest: row.ledger_digest,
    tier: row.tier,
    score: row.score === null ? null : Math.round(row.score),
    current: row.current_evaluation_id === row.id,
    demo: row.demo,
    trader: { id: row.user_id, name: displayName(row) || NAMELESS_TRADER, username: row.username },
  });
}

export const meta: MetaFunction<typeof loader> = (args) =>
  seo(args, { title: args.data ? `Verification ${args.data.code} · Grader` : "Nothing to see here! · Grader", noindex: true });

export default function VerifyCard() {
  const d = useLoaderData<typeof loader>();
  return (
    <div className="page narrow">
      <h1>Verified evaluation</h1>
      {d.demo ? <DemoDataNote /> : null}
      <p>
        Code <strong>{d.code}</strong> belongs to a real Grader evaluation. Compare it with the card you were shown.
      </p>
      <dl className="card record">
        <dt className="muted">Trader</dt>
        <dd>
          <Link to={`/u/${d.trader.id}`}>{d.trader.name}</Link>
          {d.trader.username ? <span className="muted"> @{d.trader.username}</span> : null}
        </dd>
        <dt className="muted">Data</dt>
        <dd>{d.demo ? "Demo data (simulated provider histories)" : "Imported from the trader's linked accounts"}</dd>
        <dt className="muted">Tier</dt>
        <dd>{d.tier ?? "Not graded"}</dd>
        <dt className="muted">Score</dt>
        <dd>{d.score === null ? "—" : `${d.score}/100`}</dd>
        <dt className="muted">Graded on</dt>
        <dd>
          <time dateTime={d.createdAt}>{d.date}</time>
        </dd>
        <dt className="muted">Engine version</dt>
        <dd>{d.engineVersion}</dd>
        <dt className="muted">Ledger digest</dt>
        <dd>
          <code style={{ wordBreak: "break-all" }}>{d.ledgerDigest}</code>
        </dd>
      </dl>
      <p className="small muted">
        {d.current ? "This is the trader's current grade." : "The trader has been graded again since; this card shows an earlier evaluation."}
      </p>
      <p>
        <Link to="/evaluate" className="btn btn-primary">
          Get your grade
        </Link>
      </p>
    </div>
  );
}
