import { DemoDataNote } from "~/components/DemoBanner";
import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { NO_GRADE, VerifyForm } from "~/components/VerifyForm";
import { METRICS } from "~/lib/metrics";
import { seo } from "~/lib/seo";
import { normaliseCode } from "~/server/grades/grade-record.server";
import { gradeVerification, loggedOnlyVerification } from "~/server/grades/verify.server";

// The code printed on every card leads here: everything the card shows, from the stored grade, and
// the card itself, so a viewer can tell a real card from an edited screenshot. Public; money only
// when the trader shows amounts. An unknown code is a 404 on a page that still has the form.
export async function loader({ params }: LoaderFunctionArgs) {
  const code = normaliseCode(params.code);
  const found = code ? await gradeVerification(code) : null;
  if (found) return json({ found, logged: null, entered: found.code });
  const logged = code ? await loggedOnlyVerification(code) : null;
  if (logged) return json({ found: null, logged, entered: logged.code });
  return json({ found: null, logged: null, entered: (params.code ?? "").slice(0, 40) }, { status: 404 });
}

export const meta: MetaFunction<typeof loader> = (args) =>
  seo(args, {
    title:
      args.data?.found || args.data?.logged ? `Verification ${args.data.entered} · Grader` : `${NO_GRADE} · Grader`,
    noindex: true,
  });

const KIND_NAMES: Record<string, string> = { plaid: "brokerage (Plaid)", evm: "EVM wallet", solana: "Solana wallet" };

export default function VerifyCard() {
  const { found: d, logged, entered } = useLoaderData<typeof loader>();
  if (!d && logged) return <LoggedOnly r={logged} />;
  if (!d) {
    return (
      <div className="page narrow">
        <h1>Verify a grade</h1>
        <p role="alert" className="form-error">
          {NO_GRADE}
        </p>
        <VerifyForm defaultValue={entered} />
      </div>
    );
  }
  const rows: [string, React.ReactNode][] = [
    [
      "Trader",
      <>
        <Link to={`/u/${d.trader.id}`}>{d.trader.name}</Link>
        {d.trader.username ? <span className="muted"> @{d.trader.username}</span> : null}
      </>,
    ],
    ["Tier", d.tier ?? "Not graded"],
    ["Stars", d.stars === null ? "—" : `${d.stars} of 5`],
    ["Score", d.score === null ? "—" : `${d.score}/100`],
    ...d.figures.map((f): [string, string] => [f.label, f.value]),
    ["Graded on", <time dateTime={d.createdAt}>{d.date}</time>],
    ["Period", d.period.from && d.period.to ? `${d.period.from.slice(0, 10)} to ${d.period.to.slice(0, 10)}` : "—"],
    [
      "Data",
      d.log
        ? d.log.data === "demo"
          ? "Demo data (simulated provider histories)"
          : "Real data (imported from live providers)"
        : d.selfReported
          ? "Self-reported (an uploaded statement, not checked with a provider)"
          : d.demo
            ? "Demo data (a seeded demo trader's simulated history)"
            : "Not recorded",
    ],
    [
      "Accounts linked",
      d.log
        ? d.log.accounts.map((a) => `${a.count} ${KIND_NAMES[a.kind] ?? a.kind}`).join(", ") || "None"
        : "Not recorded",
    ],
    ...(d.log?.unlinked ? ([["Unlinked accounts", d.log.unlinked]] as [string, string][]) : []),
    ...(d.dataQuality ? ([["Data quality", d.dataQuality]] as [string, string][]) : []),
    ["Engine version", d.engineVersion],
    ["Ledger digest", <code style={{ wordBreak: "break-all" }}>{d.ledgerDigest}</code>],
  ];
  return (
    <div className="page narrow">
      <h1>{d.selfReported ? "Self-reported evaluation" : "Verified evaluation"}</h1>
      {d.log?.data === "demo" || d.demo ? <DemoDataNote /> : null}
      {d.selfReported ? (
        <p className="card" role="note" data-testid="self-reported">
          <strong>Self-reported.</strong> This grade was made from a statement file the trader uploaded. Grader graded
          the file as given but could not check it with their broker, so it is not on the market leaderboard and not in
          the public grade log.
        </p>
      ) : null}
      <p>
        Code <strong>{d.code}</strong> belongs to a{d.demo && !d.log ? " demo" : " real"} Grader evaluation. Compare
        every figure with the card you were shown.
      </p>
      <dl className="card record">
        {rows.map(([label, value]) => (
          <div key={label} style={{ display: "contents" }}>
            <dt className="muted">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {d.log ? (
        <section aria-labelledby="signed-record">
          <h2 id="signed-record">Signed record</h2>
          <p>
            Entry {d.log.seq} of the <a href="/api/grades/log">public grade log</a>, signed with key{" "}
            <code>{d.log.kid}</code>:{" "}
            <strong>
              {d.log.valid ? "the signature and hash check out" : `this record does not check out (${d.log.problem})`}
            </strong>
            .
          </p>
          <p>
            <a href={`/verify/${d.code}/record.json`} download>
              Download the signed record
            </a>{" "}
            and check it yourself with the <a href="/.well-known/grader-keys.json">published keys</a>.
          </p>
        </section>
      ) : d.selfReported ? (
        <p className="small muted">
          A self-reported grade carries no signed record: the public log vouches only for grades made from providers'
          data.
        </p>
      ) : d.demo ? (
        <p className="small muted">
          A demo grade of the demo community: graded by the engine from the trader's seeded history, and kept out of the
          public grade log, so it carries no signed record.
        </p>
      ) : (
        <p className="small muted">This grade is from before the public log and carries no signed record.</p>
      )}
      <p className="small muted">
        {d.current
          ? "This is the trader's current grade."
          : "The trader has been graded again since; this code belongs to an earlier evaluation."}
      </p>
      {d.card ? (
        <figure>
          <img
            src={d.card.path}
            width={d.card.width}
            height={d.card.height}
            alt={`The card of this grade: ${d.tier}, ${d.score}/100, code ${d.code}`}
            style={{ width: "100%", height: "auto" }}
          />
          <figcaption className="small muted">
            The card as Grader draws it. A card that differs from this one was edited.
          </figcaption>
        </figure>
      ) : null}
      <h2>Check another code</h2>
      <VerifyForm />
      <p>
        <Link to="/evaluate" className="btn btn-primary">
          Get your grade
        </Link>
      </p>
    </div>
  );
}

/** A grade whose trader deleted their account: only the signed public record remains. */
function LoggedOnly({ r }: { r: NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["logged"]> }) {
  const rows: [string, string][] = [
    ["Tier", r.tier ?? "Not graded"],
    ["Stars", r.stars === null ? "—" : `${r.stars} of 5`],
    ["Score", r.score === null ? "—" : `${r.score}/100`],
    [METRICS.twr.label, r.figures.twr],
    [METRICS.maxDrawdown.label, r.figures.maxDrawdown],
    [METRICS.winRate.label, r.figures.winRate],
    ["Graded on", r.date],
    ["Engine version", r.engineVersion],
    ["Ledger digest", r.ledgerDigest],
  ];
  return (
    <div className="page narrow">
      <h1>Verified evaluation</h1>
      <p>
        Code <strong>{r.code}</strong> belongs to a grade whose trader has since deleted their account. Its signed
        record remains in the public log (entry {r.seq}, key <code>{r.kid}</code>):{" "}
        <strong>{r.valid ? "the signature and hash check out" : "this record does not check out"}</strong>.
      </p>
      <dl className="card record">
        {rows.map(([label, value]) => (
          <div key={label} style={{ display: "contents" }}>
            <dt className="muted">{label}</dt>
            <dd style={{ wordBreak: "break-all" }}>{value}</dd>
          </div>
        ))}
      </dl>
      <p>
        <a href={`/verify/${r.code}/record.json`} download>
          Download the signed record
        </a>
      </p>
      <h2>Check another code</h2>
      <VerifyForm />
    </div>
  );
}
