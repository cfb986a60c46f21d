import type { LinkedAccountKind } from "~/lib/vocabulary";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GradeBadge } from "~/components/GradeBadge";
import { Page } from "~/components/Page";
import type { Tier } from "~/lib/vocabulary";
import { seo } from "~/lib/seo";
import { formatDay, formatScore } from "~/lib/format-number";
import { currentGradeSummary, triesLeft } from "~/server/grades/evaluation.server";
import { listLinkedAccounts } from "~/server/linking/imports.server";
import { hasSharedCard } from "~/server/community/points.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Dashboard · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [grade, accounts, tries, shared] = await Promise.all([
    currentGradeSummary(user.id),
    listLinkedAccounts(user.id),
    triesLeft(user.id),
    hasSharedCard(user.id),
  ]);
  return json({
    grade,
    tries,
    onboarded: user.onboarded_at !== null,
    shared,
    accounts: accounts.map((a) => ({
      id: a.id,
      label: a.label,
      kind: a.kind,
      status: a.status,
      lastImportedAt: a.last_imported_at ? new Date(a.last_imported_at).toISOString() : null,
    })),
  });
}

const KIND: Record<LinkedAccountKind, string> = {
  plaid: "Broker",
  evm: "MetaMask",
  solana: "Phantom",
  binance: "Binance",
  ibkr: "IBKR",
  kraken: "Kraken",
  coinbase: "Coinbase",
  okx: "OKX",
  bybit: "Bybit",
  statement: "Statement",
};

/** The logged-in home of START NOW: grade, linked accounts and the next step that matters. */
export default function Dashboard() {
  const { grade, accounts, tries, onboarded, shared } = useLoaderData<typeof loader>();
  const steps = [
    { done: onboarded, text: "Tell other traders who you are", to: "/user-questions" },
    { done: accounts.length > 0, text: "Link a broker or wallet", to: "/profile/account" },
    { done: Boolean(grade), text: "Get your grade", to: "/evaluate" },
    { done: shared, text: "Share your card", to: grade ? "/share" : "/evaluate" },
  ];
  return (
    <Page title="Dashboard" lead="Your grade, your linked accounts and what to do next.">
      <div className="grid">
        <section className="card">
          <h2>Your grade</h2>
          {grade?.tier ? (
            <>
              <p>
                <GradeBadge tier={grade.tier as Tier} stars={grade.stars} />
              </p>
              <p className="muted">{`Score ${formatScore(grade.score)}/100 · graded ${formatDay(new Date(grade.createdAt))}`}</p>
              <Link to="/profile/stats" className="btn btn-ghost">
                See my stats
              </Link>
            </>
          ) : (
            <>
              <p className="muted">No grade yet.</p>
              <Link to="/evaluate" className="btn btn-primary">
                Get Grade
              </Link>
            </>
          )}
          <p className="muted small">
            {`${tries} ${tries === 1 ? "try" : "tries"} left · `}
            <Link to="/pricing">Passes</Link>
          </p>
        </section>
        <section className="card">
          <h2>Linked accounts</h2>
          {accounts.length === 0 ? (
            <p className="muted">None linked yet.</p>
          ) : (
            <ul className="plain-list">
              {accounts.map((a) => (
                <li key={a.id}>
                  <strong>{a.label}</strong> <span className="muted small">{KIND[a.kind]}</span>
                  {a.status !== "active" ? (
                    <span className="tag">
                      {a.status === "relogin_required" ? "Reconnect needed" : "Import failed"}
                    </span>
                  ) : null}
                  <div className="muted small">
                    {a.lastImportedAt ? `Imported ${formatDay(new Date(a.lastImportedAt))}` : "Not imported yet"}
                  </div>
                </li>
              ))}
            </ul>
          )}
          <Link to="/profile/account" className="btn btn-ghost">
            {accounts.length ? "Manage accounts" : "Link an account"}
          </Link>
        </section>
        <section className="card">
          <h2>Next steps</h2>
          <ol className="steps-list">
            {steps.map((s) => (
              <li key={s.text} className={s.done ? "done" : undefined}>
                {s.done ? <span>{`✓ ${s.text}`}</span> : <Link to={s.to}>{s.text}</Link>}
              </li>
            ))}
          </ol>
        </section>
      </div>
    </Page>
  );
}
