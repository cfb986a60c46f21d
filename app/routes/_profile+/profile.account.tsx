import type { LinkedAccountKind } from "~/lib/vocabulary";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isSimulated } from "~/server/platform/demo.server";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import toast from "react-hot-toast";
import { ACCOUNT_KIND_VIEWS, LINK_OPTIONS } from "~/lib/account-kinds";
import { useLive, useLiveConnected } from "~/lib/live";
import { useDevice } from "~/lib/device";
import { walletsAllowed } from "~/lib/device-class";
import { seo } from "~/lib/seo";
import { timeAgo } from "~/lib/time-ago";
import { listLinkedAccountsWithCounts, MESSAGE_406 } from "~/server/linking/imports.server";
import { unlinkAccountKeepingHistory } from "~/server/linking/unlinked-accounts.server";
import { requireUser } from "~/server/http/session.server";
import { gradeHistory } from "~/server/grades/evaluation.server";
import {
  gradeIsCurrent,
  isImportRunning,
  exchangeKeyMessage,
  ibkrTokenMessage,
  reloginMessage,
  type ImportView,
} from "~/lib/imports";
import { listImports, retryImport } from "~/server/linking/linking.server";
import { ADD_FAILED_MESSAGE, PLAID_HICCUP_MESSAGE } from "~/server/linking/providers/plaid.server";
import {
  LINK_LIMIT_MESSAGE,
  LINK_SESSION_LIMIT_MESSAGE,
  REIMPORT_LIMIT_MESSAGE,
} from "~/server/linking/link-limits.server";
import { readForm } from "~/server/http/guards.server";
import { idOrNull, toId } from "~/lib/ids";
import { formText, parseForm } from "~/lib/forms";
import { z } from "zod";
import { FormResult } from "~/components/Field";
import { LoadingOverlay } from "~/components/LoadingOverlay";

export const meta: MetaFunction = (args) => seo(args, { title: "Linked accounts · Grader", noindex: true });
export { retryAfterHeaders as headers } from "~/lib/route-headers";

// Flash messages travel as a query parameter set by the link flow's last redirect.
function flashFrom(url: URL): { tone: "ok" | "error"; text: string } | null {
  if (url.searchParams.get("added") === "1")
    return { tone: "ok", text: "Added the account successfully! Your trades are importing; the progress is below." };
  if (url.searchParams.get("reconnected") === "1")
    return { tone: "ok", text: "Reconnected. Your history is importing again; the progress is below." };
  if (url.searchParams.get("retrying") === "1")
    return { tone: "ok", text: "The import started again; the progress is below." };
  if (url.searchParams.get("unlinked") === "1")
    return { tone: "ok", text: "The account was unlinked and its imported history removed." };
  switch (url.searchParams.get("linkError")) {
    case "406":
      return { tone: "error", text: MESSAGE_406 };
    case "hiccup":
      return { tone: "error", text: PLAID_HICCUP_MESSAGE };
    case "relogin":
      return { tone: "error", text: `${ADD_FAILED_MESSAGE} Your broker needs you to log in again: use Reconnect.` };
    case "failed":
      return { tone: "error", text: ADD_FAILED_MESSAGE };
    case "limit":
      return { tone: "error", text: LINK_LIMIT_MESSAGE };
    case "reimport-limit":
      return { tone: "error", text: REIMPORT_LIMIT_MESSAGE };
    case "sessions":
      return { tone: "error", text: LINK_SESSION_LIMIT_MESSAGE };
    default:
      return null;
  }
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [accounts, imports, [latestGrade]] = await Promise.all([
    listLinkedAccountsWithCounts(user.id),
    listImports(user.id),
    gradeHistory(user.id, 1),
  ]);
  const url = new URL(request.url);
  return json({
    imports,
    latestGrade: latestGrade ? { tier: latestGrade.tier, createdAt: latestGrade.created_at } : null,
    demo: isSimulated("plaid"),
    // Where the no-JavaScript refresh goes: this page without its #imports fragment (a refresh to a
    // URL with a fragment is a same-page jump in Chromium, not a reload).
    self: `${url.pathname}${url.search}`,
    flash: flashFrom(url),
    accounts: accounts.map((a) => ({
      id: a.id,
      kind: a.kind,
      label: a.label,
      institution: a.institution_name,
      status: a.status,
      relogin:
        a.status === "relogin_required"
          ? ACCOUNT_KIND_VIEWS[a.kind].family === "exchange"
            ? exchangeKeyMessage(a.last_error)
            : a.kind === "ibkr"
              ? ibkrTokenMessage(a.last_error)
              : reloginMessage(a.last_error)
          : null,
      lastImportedAt: a.last_imported_at ? new Date(a.last_imported_at).toISOString() : null,
      trades: a.trades,
      cashFlows: a.cash_flows,
    })),
  });
}

const AccountForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("unlink"), id: idOrNull, confirm: formText }),
  z.object({ intent: z.literal("reimport"), id: idOrNull }),
]);

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = parseForm(AccountForm, await readForm(request));
  // The account is asked about before the intent, as the page always sends a known one.
  if (!parsed.ok)
    return toId(parsed.values.id) === null
      ? json({ error: "Choose an account." }, { status: 400 })
      : json({ error: "Unknown action." }, { status: 400 });
  const form = parsed.data;
  const id = form.id;
  if (id === null) return json({ error: "Choose an account." }, { status: 400 });
  if (form.intent === "unlink") {
    // Step one (no JavaScript needed): ask; step two carries confirm=yes.
    if (form.confirm !== "yes") return json({ confirmUnlink: id });
    const removed = await unlinkAccountKeepingHistory(user.id, id);
    if (removed.ok) return redirect("/profile/account?unlinked=1");
    // Past today's limit the question stays open beside the message, as a refused form keeps its input.
    if (removed.status === 429)
      return json(
        { error: removed.message, confirmUnlink: id },
        { status: 429, headers: { "Retry-After": String(removed.retryAfter) } },
      );
    return json({ error: removed.message }, { status: removed.status });
  }
  // "reimport": what the schema leaves.
  const retried = await retryImport(user.id, id);
  if (retried.ok) return redirect("/profile/account?retrying=1");
  return json(
    { error: retried.message },
    { status: retried.status, headers: "retryAfter" in retried ? { "Retry-After": String(retried.retryAfter) } : {} },
  );
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

const STATUS_TEXT = {
  active: "Active",
  importing: "Importing",
  relogin_required: "Needs re-login",
  error: "Import failed",
} as const;
const STATE_TEXT: Record<ImportView["state"], string> = {
  queued: "Waiting to start",
  waiting_for_provider: "Waiting for the provider",
  fetching: "Fetching history",
  mapping: "Reading trades",
  grading: "Grading",
  done: "Done",
  failed: "Failed",
};

/** An import's progress: a bar (fetched of total when known), its state, skipped items, errors. */
function ImportProgress({ imp }: { imp: ImportView }) {
  const running = isImportRunning(imp.state);
  const value = imp.state === "done" ? 1 : imp.total ? Math.min(1, imp.fetched / imp.total) : undefined;
  return (
    <div className="stack" style={{ gap: "0.25rem" }} data-testid="import-progress" data-state={imp.state}>
      <div className="small" role={running ? "status" : undefined}>
        <strong>{STATE_TEXT[imp.state]}</strong>
        {imp.total ? ` · ${imp.fetched} of ${imp.total} items` : imp.fetched ? ` · ${imp.fetched} items` : ""}
        {/* Job runs count every step (an exchange's history is dozens): said only while retrying. */}
        {running && (imp.state === "waiting_for_provider" || imp.error) && imp.attempts > 1
          ? ` · attempt ${imp.attempts}`
          : ""}
      </div>
      {/* Indeterminate (no value) while the total is unknown. */}
      <progress
        max={1}
        value={value}
        aria-label={`Import of ${imp.account_label}: ${STATE_TEXT[imp.state]}`}
        style={{ width: "100%" }}
      />
      {imp.skipped.length ? (
        <p className="muted small" style={{ margin: 0 }}>
          Skipped: {imp.skipped.map((s) => `${s.count} ${s.reason}`).join(", ")}
        </p>
      ) : null}
      {imp.error ? (
        <p
          className={imp.state === "failed" ? "form-error small" : "muted small"}
          style={{ margin: 0 }}
          role={imp.state === "failed" ? "alert" : undefined}
        >
          {imp.error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * While an import runs: with JavaScript, the live channel's `import` events fetch GET
 * /api/portal/imports (a fetcher polls it only while the stream is not connected) and the page
 * reloads its data when one finishes; without it, the page refreshes itself every 2 s.
 */
function useLiveImports(initial: ImportView[]): ImportView[] {
  const fetcher = useFetcher<{ data: ImportView[] }>();
  const revalidator = useRevalidator();
  const imports = fetcher.data?.data ?? initial;
  const running = imports.some((i) => isImportRunning(i.state));
  const wasRunning = useRef(running);
  const live = useLiveConnected();
  useLive((message) => {
    // A newer load replaces one still running, so the last event is always read. A stream that
    // (re)connects says nothing of what happened before it: read the imports once then too.
    if (message.kind === "import" || (message.kind === "ready" && running)) fetcher.load("/api/portal/imports");
  });
  useEffect(() => {
    if (!running || live) return;
    const timer = setInterval(() => {
      if (fetcher.state === "idle") fetcher.load("/api/portal/imports");
    }, 1500);
    return () => clearInterval(timer);
  }, [running, live, fetcher]);
  useEffect(() => {
    // One finished: reload the page's data (trade counts, account status).
    if (wasRunning.current && !running && revalidator.state === "idle") revalidator.revalidate();
    wasRunning.current = running;
  }, [running, revalidator]);
  return imports;
}
// The unlink question's id: the fragment its first step's form posts to.
const UNLINK_QUESTION = "unlink-question";
const KIND_TEXT: Record<LinkedAccountKind, string> = {
  plaid: "Broker (Plaid)",
  evm: "EVM wallet",
  solana: "Solana wallet",
  binance: "Binance (read-only key)",
  ibkr: "Interactive Brokers (Flex token)",
  kraken: "Kraken (read-only key)",
  coinbase: "Coinbase (read-only key)",
  okx: "OKX (read-only key)",
  bybit: "Bybit (read-only key)",
  statement: "Statement (self-reported)",
};

export default function LinkedAccounts() {
  const { accounts, flash, demo, self, imports: initialImports, latestGrade } = useLoaderData<typeof loader>();
  const imports = useLiveImports(initialImports);
  const importing = imports.some((i) => isImportRunning(i.state));
  // The next step after a link: once the history is in, the grade is one click away on this page;
  // when a grade was made since (the import's own automatic one), it is there to see instead.
  const readyToGrade = !importing && imports.some((i) => i.state === "done");
  const graded = gradeIsCurrent(imports, latestGrade);
  const latestImport = (accountId: number) => imports.find((i) => i.linked_account_id === accountId);
  const result = useActionData<typeof action>();
  const { device } = useDevice();
  const desktop = walletsAllowed(device);
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const grading = navigation.state === "submitting" && navigation.formAction === "/evaluate";
  const confirmId = result && "confirmUnlink" in result ? result.confirmUnlink : null;
  const confirming = accounts.find((a) => a.id === confirmId);
  // The question appears at the top while the Unlink clicked may sit far below: with JavaScript the
  // page stays where it was, so the question is brought into view and focused; without, the answer
  // is a new page, and the first step's form action carries UNLINK_QUESTION as its fragment so the
  // browser opens it scrolled to the question (below the profile's header and tabs on a phone).
  const question = useRef<HTMLDivElement>(null);
  // Once per answer, after the submission's navigation has ended (its scroll handling would undo
  // ours); the import's progress revalidates the page every few seconds without asking again.
  const shown = useRef<unknown>(null);
  const confirmingId = confirming?.id;
  useEffect(() => {
    if (confirmingId === undefined || navigation.state !== "idle" || shown.current === result) return;
    shown.current = result;
    question.current?.scrollIntoView({ block: "center" });
    question.current?.focus({ preventScroll: true });
  }, [result, confirmingId, navigation.state]);

  useEffect(() => {
    if (!flash) return;
    if (flash.tone === "ok") toast.success(flash.text, { id: "link-flash" });
    else toast.error(flash.text, { id: "link-flash" });
  }, [flash]);

  return (
    <section className="stack">
      <LoadingOverlay show={grading} label="Evaluating your trades…" />
      <h2>Linked accounts</h2>
      {importing ? (
        <>
          <noscript>
            <meta httpEquiv="refresh" content={`2; url=${self}`} />
          </noscript>
          <p className="muted small">
            Your trades are importing. <Link to="/profile/account">Refresh</Link>
          </p>
        </>
      ) : null}
      {flash ? (
        <p
          className={flash.tone === "ok" ? "form-success" : "form-error"}
          role={flash.tone === "ok" ? "status" : "alert"}
          data-testid="link-flash"
        >
          {flash.text}
        </p>
      ) : null}
      <FormResult error={result && "error" in result ? result.error : null} />

      {confirming ? (
        <div
          id={UNLINK_QUESTION}
          className="card stack"
          role="group"
          aria-labelledby="unlink-title"
          ref={question}
          tabIndex={-1}
          style={{ scrollMarginTop: "5rem" }}
        >
          <h3 id="unlink-title" style={{ margin: 0 }}>
            Unlink {confirming.label}?
          </h3>
          <p className="muted">
            Its imported history ({confirming.trades} trades) is removed from Grader. You can link it again later.
          </p>
          <div style={{ display: "flex", gap: "0.5rem" }}>
            <Form method="post">
              <input type="hidden" name="intent" value="unlink" />
              <input type="hidden" name="id" value={confirming.id} />
              <input type="hidden" name="confirm" value="yes" />
              <button type="submit" className="btn btn-primary" disabled={busy}>
                Unlink
              </button>
            </Form>
            <Link to="/profile/account" className="btn btn-ghost">
              Cancel
            </Link>
          </div>
        </div>
      ) : null}

      {accounts.length === 0 ? (
        <p className="muted">
          No linked accounts yet. Link a broker through Plaid, or prove a MetaMask or Phantom wallet by signing a
          message.
        </p>
      ) : (
        <ul
          id="imports"
          className="stack"
          style={{ listStyle: "none", padding: 0, scrollMarginTop: "5rem" }}
          aria-label="Your linked accounts"
        >
          {accounts.map((a) => (
            <li key={a.id} className="card" data-testid="linked-account">
              <div style={{ display: "flex", flexWrap: "wrap", gap: "0.75rem", alignItems: "baseline" }}>
                <strong>{a.label}</strong>
                {a.institution ? <span className="muted">{a.institution}</span> : null}
                <span className="muted small">{KIND_TEXT[a.kind]}</span>
                <span className="small" data-status={a.status}>
                  {a.kind === "ibkr" && a.status === "relogin_required" ? "Needs a new token" : STATUS_TEXT[a.status]}
                </span>
              </div>
              <p className="muted small" style={{ margin: "0.4rem 0" }}>
                {a.lastImportedAt ? `Last import ${timeAgo(a.lastImportedAt)}` : "Not imported yet"} · {a.trades} trades
                · {a.cashFlows} deposits and withdrawals
              </p>
              {a.relogin ? (
                <p className="form-error small" role="alert" data-testid="relogin-message">
                  {a.relogin}
                </p>
              ) : null}
              {(() => {
                const imp = latestImport(a.id);
                return imp ? <ImportProgress imp={imp} /> : null;
              })()}
              <div style={{ display: "flex", flexWrap: "wrap", gap: "0.5rem" }}>
                {ACCOUNT_KIND_VIEWS[a.kind].reconnects && a.status === "relogin_required" ? (
                  <form method="post" action={ACCOUNT_KIND_VIEWS[a.kind].link.path}>
                    <input type="hidden" name="linked_account_id" value={a.id} />
                    <button type="submit" className="btn btn-primary">
                      Reconnect
                    </button>
                  </form>
                ) : null}
                {a.status === "error" && !isImportRunning(latestImport(a.id)?.state ?? "done") ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="reimport" />
                    <input type="hidden" name="id" value={a.id} />
                    <button type="submit" className="btn btn-ghost" disabled={busy}>
                      Try the import again
                    </button>
                  </Form>
                ) : null}
                <Form method="post" action={`/profile/account#${UNLINK_QUESTION}`}>
                  <input type="hidden" name="intent" value="unlink" />
                  <input type="hidden" name="id" value={a.id} />
                  <button type="submit" className="btn btn-ghost" aria-label={`Unlink ${a.label}`} disabled={busy}>
                    Unlink
                  </button>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      )}

      {readyToGrade && graded && latestGrade ? (
        <div className="card stack" data-testid="next-step">
          <h3 style={{ margin: 0 }}>Your grade is ready</h3>
          <p className="muted" style={{ margin: 0 }}>
            {latestGrade.tier ? `${latestGrade.tier}, graded ` : "Graded "}
            {lowerFirst(timeAgo(latestGrade.createdAt))} from the trades imported here, ready to share.
          </p>
          <p style={{ margin: 0 }}>
            <Link to="/profile/stats" className="btn btn-primary">
              See my grade
            </Link>
          </p>
        </div>
      ) : readyToGrade ? (
        <div className="card stack" data-testid="next-step">
          <h3 style={{ margin: 0 }}>Your trades are in</h3>
          <p className="muted" style={{ margin: 0 }}>
            Next: your grade (ROI, holding period and risk), ready to share.
          </p>
          {/* A real form: the evaluation action redirects to the stats, with or without JavaScript. */}
          <Form method="post" action="/evaluate">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              Get my grade
            </button>
          </Form>
        </div>
      ) : null}

      <div className="card stack">
        <h3 style={{ margin: 0 }}>Add an account</h3>
        {/* A broker's link is a plain form post: the server makes the Link token and redirects, so it
            works without JavaScript. */}
        {LINK_OPTIONS.filter((kind) => ACCOUNT_KIND_VIEWS[kind].link.method === "post").map((kind) => (
          <form key={kind} method="post" action={ACCOUNT_KIND_VIEWS[kind].link.path}>
            <button type="submit" className="btn btn-primary">
              {ACCOUNT_KIND_VIEWS[kind].add}
            </button>
          </form>
        ))}
        {demo ? <p className="muted small">Demo data: broker linking runs against a local Plaid simulator.</p> : null}
        <ul
          style={{ listStyle: "none", padding: 0, display: "flex", gap: "0.75rem", flexWrap: "wrap" }}
          aria-label="Exchanges and wallets"
        >
          {LINK_OPTIONS.filter((kind) => ACCOUNT_KIND_VIEWS[kind].link.method === "get").map((kind) => {
            const view = ACCOUNT_KIND_VIEWS[kind];
            return (
              <li key={kind}>
                {desktop || !view.desktopOnly ? (
                  <Link to={view.link.path} className="btn btn-ghost btn-wrap">
                    {view.add}
                    {view.desktopOnly ? <span className="muted small"> Desktop only</span> : null}
                  </Link>
                ) : (
                  <span
                    className="btn btn-ghost btn-wrap"
                    aria-disabled="true"
                    title="Wallets can be linked on a desktop browser"
                  >
                    {view.add} <span className="muted small">Desktop only</span>
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
