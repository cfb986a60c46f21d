import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json, redirect, replace } from "@remix-run/node";
import { Form, Link, Outlet, useActionData, useLocation, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { RouteErrorPanel } from "~/components/RouteError";
import { Tabs } from "~/components/Tabs";
import { formatCompact } from "~/lib/format-number";
import { safeRedirect } from "~/lib/safe-redirect";
import { follow, isFollowing, unfollow } from "~/server/community/follows.server";
import { isBlockedEitherWay, sendMessage, setBlocked } from "~/server/community/messages.server";
import { reportUser } from "~/server/community/posts.server";
import { alertSubscription, subscribeToAlerts, unsubscribeFromAlerts } from "~/server/community/trade-alerts.server";
import { getDb, getReadDbUnlessOwn } from "~/server/platform/db.server";
import { Avatar } from "~/components/Avatar";
import { SelfReportedTag } from "~/components/SelfReported";
import { GradeBadge } from "~/components/GradeBadge";
import type { Tier } from "~/lib/vocabulary";
import { currentGradeSummary } from "~/server/grades/evaluation.server";
import { displayName } from "~/lib/display-name";
import { ensureFound, findPublicProfile, parseId, readForm } from "~/server/http/guards.server";
import { requireUser } from "~/server/http/session.server";
import { formDone, formError, formText, parseForm } from "~/lib/forms";
import { z } from "zod";

export const meta: MetaFunction<typeof loader> = (args) =>
  seo(args, {
    title: args.data ? `${displayName(args.data.trader) || "Trader"} · Grader` : "Trader · Grader",
    noindex: true,
  });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const trader = ensureFound(await findPublicProfile(parseId(params.id)));
  const db = await getDb();
  // Another's grade from the read database; the counts and follow state on the primary, as the
  // viewer's own follow changes them just before this loader runs.
  const [grade, counts, following, blocked, alerts] = await Promise.all([
    currentGradeSummary(trader.id, await getReadDbUnlessOwn(viewer.id, trader.id)),
    db
      .selectFrom("users")
      .select(["followers_count", "following_count"])
      .where("id", "=", trader.id)
      .executeTakeFirstOrThrow(),
    viewer.id === trader.id ? false : isFollowing(viewer.id, trader.id),
    viewer.id === trader.id ? false : isBlockedEitherWay(viewer.id, trader.id),
    alertSubscription(viewer.id, trader.id),
  ]);
  return json({
    grade,
    trader: {
      id: trader.id,
      username: trader.username,
      first_name: trader.first_name,
      last_name: trader.last_name,
      name: trader.name,
      avatar: trader.avatar_url,
    },
    self: viewer.id === trader.id,
    following,
    blocked,
    // Live trade alerts: offered when the trader shares trades live (issue 34 point 3).
    alerts,
    counts: { followers: counts.followers_count, following: counts.following_count },
  });
}

// Follow / unfollow (idempotent), message, report and block: form posts to /u/:id (this layout).
// The message's body is judged by sendMessage; a report's reason is optional.
const TraderForm = z.discriminatedUnion("intent", [
  z.object({
    intent: z.enum(["follow", "unfollow", "block", "unblock", "alerts-on", "alerts-off"]),
    redirect_to: formText,
  }),
  z.object({ intent: z.literal("message"), body: formText }),
  z.object({
    intent: z.literal("report"),
    reason: formText.transform((s) => s.trim().slice(0, 500) || "Reported from the profile"),
  }),
]);

export async function action({ request, params }: ActionFunctionArgs) {
  const viewer = await requireUser(request);
  const id = parseId(params.id);
  ensureFound(await findPublicProfile(id));
  const parsed = parseForm(TraderForm, await readForm(request));
  if (!parsed.ok) return json(formError("Unknown action."), { status: 400 });
  const form = parsed.data;
  switch (form.intent) {
    case "follow":
    case "unfollow": {
      const result = form.intent === "follow" ? await follow(viewer.id, id) : await unfollow(viewer.id, id);
      if (!result.ok) return json(formError(result.message), { status: result.status });
      // Back to the tab the button is on, with or without JavaScript, in place of it in the history.
      return replace(safeRedirect(form.redirect_to, `/u/${id}`), 303);
    }
    case "alerts-on":
    case "alerts-off": {
      const result =
        form.intent === "alerts-on"
          ? await subscribeToAlerts(viewer.id, id)
          : await unsubscribeFromAlerts(viewer.id, id);
      if (!result.ok) return json(formError(result.message), { status: result.status });
      return replace(safeRedirect(form.redirect_to, `/u/${id}`), 303);
    }
    case "message": {
      const result = await sendMessage(viewer.id, id, form.body);
      if (!result.ok) return json(formError(result.message), { status: result.status });
      return redirect(`/messages/${result.conversationId}/reply`, 303);
    }
    case "report": {
      const result = await reportUser(viewer.id, id, form.reason);
      if (!result.ok) return json(formError(result.message), { status: result.status });
      return json(formDone("Thanks, your report was sent for review."));
    }
    case "block":
    case "unblock": {
      await setBlocked(viewer.id, id, form.intent === "block");
      if (form.intent === "block") await unfollow(id, viewer.id);
      return redirect(safeRedirect(form.redirect_to, `/u/${id}`), 303);
    }
  }
}

const tabs = ["posts", "replies", "stats", "holdings", "transactions", "history"] as const;

export default function TraderProfile() {
  return (
    <TraderLayout>
      <Outlet />
    </TraderLayout>
  );
}

// A failing tab keeps the trader's header and tabs (when the trader itself loaded).
export function ErrorBoundary() {
  const data = useRouteLoaderData<typeof loader>("routes/u.$id");
  return data ? (
    <TraderLayout>
      <RouteErrorPanel />
    </TraderLayout>
  ) : (
    <RouteErrorPanel />
  );
}

function TraderLayout({ children }: { children: ReactNode }) {
  const { trader, grade, self, following, blocked, alerts, counts } =
    useRouteLoaderData<typeof loader>("routes/u.$id")!;
  const actionData = useActionData<typeof action>();
  const location = useLocation();
  const here = location.pathname + location.search;
  return (
    <div className="page">
      <header className="profile-head">
        <Avatar user={trader} size={72} />
        <div>
          <h1>{displayName(trader) || "Trader"}</h1>
          {trader.username ? <p className="muted">@{trader.username}</p> : null}
          <p className="small">
            {grade?.tier ? (
              <>
                <GradeBadge tier={grade.tier as Tier} stars={grade.stars} />
                {grade.selfReported ? (
                  <>
                    {" "}
                    <SelfReportedTag />
                  </>
                ) : null}
              </>
            ) : (
              <span className="muted">No grade yet</span>
            )}
          </p>
          <div className="follow-row">
            <span>
              <strong>{formatCompact(counts.followers)}</strong> {counts.followers === 1 ? "follower" : "followers"}
            </span>
            <span>
              <strong>{formatCompact(counts.following)}</strong> following
            </span>
            {self ? (
              <Link to="/profile" className="btn btn-ghost btn-small">
                Your profile
              </Link>
            ) : (
              <>
                <Form method="post" action={`/u/${trader.id}`} preventScrollReset>
                  <input type="hidden" name="redirect_to" value={here} />
                  <button
                    type="submit"
                    name="intent"
                    value={following ? "unfollow" : "follow"}
                    className={following ? "btn btn-ghost" : "btn btn-primary"}
                  >
                    {following ? "Unfollow" : "Follow"}
                  </button>
                </Form>
                {alerts.available && !blocked ? (
                  following ? (
                    <Form method="post" action={`/u/${trader.id}`} preventScrollReset>
                      <input type="hidden" name="redirect_to" value={here} />
                      <button
                        type="submit"
                        name="intent"
                        value={alerts.subscribed ? "alerts-off" : "alerts-on"}
                        className="btn btn-ghost"
                        data-testid="trade-alerts"
                      >
                        {alerts.subscribed ? "Stop live trade alerts" : "Get live trade alerts"}
                      </button>
                    </Form>
                  ) : (
                    <span className="small muted" data-testid="trade-alerts">
                      Shares trades live: follow to get alerts
                    </span>
                  )
                ) : null}
                {blocked ? null : (
                  <details className="message-box">
                    <summary className="btn btn-ghost">Message</summary>
                    <Form method="post" action={`/u/${trader.id}`} className="stack popover-panel">
                      <label htmlFor="dm-body">Message to {displayName(trader) || "this trader"}</label>
                      <textarea id="dm-body" name="body" maxLength={2000} rows={3} required />
                      <button type="submit" name="intent" value="message" className="btn btn-primary">
                        Send
                      </button>
                    </Form>
                  </details>
                )}
                <details className="report-box">
                  <summary className="small muted">Report or block</summary>
                  <div className="stack popover-panel">
                    <Form method="post" action={`/u/${trader.id}`} className="stack">
                      <label htmlFor="report-user">Why are you reporting this trader?</label>
                      <input id="report-user" name="reason" maxLength={500} required />
                      <button type="submit" name="intent" value="report" className="btn btn-ghost btn-small">
                        Send report
                      </button>
                    </Form>
                    <Form method="post" action={`/u/${trader.id}`}>
                      <input type="hidden" name="redirect_to" value={here} />
                      <button type="submit" name="intent" value="block" className="btn btn-ghost btn-small">
                        Block
                      </button>
                    </Form>
                  </div>
                </details>
              </>
            )}
          </div>
          {actionData?.formError ? (
            <p className="field-error" role="alert">
              {actionData.formError}
            </p>
          ) : null}
          {actionData?.notice ? (
            <p role="status" className="notice">
              {actionData.notice}
            </p>
          ) : null}
        </div>
      </header>
      <Tabs
        label="Trader"
        tabs={tabs.map((t) => [`/u/${trader.id}/${t}`, t[0]!.toUpperCase() + t.slice(1)] as const)}
      />
      {children}
    </div>
  );
}
