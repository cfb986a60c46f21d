import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { GradeBadge } from "~/components/GradeBadge";
import { EmptyState, Page } from "~/components/Page";
import { Composer, PostCard } from "~/components/PostCard";
import { TraderLink } from "~/components/TraderLink";
import { displayName } from "~/lib/display-name";
import { formDone, formError, parseForm } from "~/lib/forms";
import { formatNumber, formatPercent } from "~/lib/format-number";
import { useLiveRevalidate } from "~/lib/live";
import { parseBefore } from "~/lib/paging";
import { notificationText } from "~/lib/notifications";
import { seo } from "~/lib/seo";
import { timeAgo } from "~/lib/time-ago";
import { TIERS, type Tier } from "~/lib/vocabulary";
import {
  ClubPageAction,
  clubLeaderboard,
  clubMembers,
  clubQueue,
  clubReports,
  decideClubReport,
  deleteClub,
  getClub,
  isModerator,
  joinClub,
  leaveClub,
  membershipOf,
  moderateMember,
  transferClub,
} from "~/server/community/clubs.server";
import { clubFeed, createPost } from "~/server/community/posts.server";
import { clubAlerts } from "~/server/community/trade-alerts.server";
import { readForm } from "~/server/http/guards.server";
import { getSessionUser, requireUser } from "~/server/http/session.server";

const TABS = ["feed", "alerts", "members", "leaderboard", "manage"] as const;
type Tab = (typeof TABS)[number];

const NOTICES: Record<string, string> = {
  created: "Your club is open. Share its link to bring members in.",
  joined: "Welcome: you are a member.",
  requested: "Your request was sent. A moderator will answer it.",
  left: "You left the club.",
  posted: "Posted to the club.",
  done: "Done.",
  transferred: "The club has a new owner. You are one of its moderators now.",
};

async function clubOr404(slug: string | undefined) {
  const club = slug && /^[a-z0-9-]{1,80}$/.test(slug) ? await getClub(slug) : null;
  if (!club) throw new Response("Not Found", { status: 404 });
  return club;
}

// /clubs/:slug: the shareable club page. Anyone (signed in or not) sees what the club is; signed-in
// traders see its members and leaderboard; only active members read and write its feed.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const club = await clubOr404(params.slug);
  const user = await getSessionUser(request);
  const url = new URL(request.url);
  const membership = user ? await membershipOf(club.id, user.id) : null;
  const member = membership?.status === "active";
  const moderator = isModerator(membership);
  const asked = url.searchParams.get("tab");
  let tab: Tab = TABS.includes(asked as Tab) ? (asked as Tab) : member ? "feed" : "members";
  if (tab === "manage" && !moderator) tab = "members";
  const before = parseBefore(url.searchParams);
  const [feed, alerts, members, leaderboard, queue, reports] = await Promise.all([
    user && member && tab === "feed" ? clubFeed(club.id, user.id, before) : null,
    user && member && tab === "alerts" ? clubAlerts(club.id, user.id) : null,
    user && tab === "members" ? clubMembers(club.id) : null,
    user && tab === "leaderboard" ? clubLeaderboard(club.id) : null,
    user && moderator && tab === "manage" ? clubQueue(club.id) : null,
    user && moderator && tab === "manage" ? clubReports(club.id) : null,
  ]);
  return json({
    club,
    signedIn: Boolean(user),
    me: user?.id ?? null,
    membership,
    tab,
    before,
    feed,
    // Each alert in the words of its notification (issue 34 point 4: the members' alerts in one stream).
    alerts:
      alerts?.map((a) => ({
        id: a.alert_id,
        traderId: a.trader_id,
        tradedAt: a.traded_at,
        text: notificationText({ kind: "trade_alert", count: 1, actor: a.trader_name, data: a }),
      })) ?? null,
    members,
    leaderboard,
    queue,
    reports,
    canAttach: Boolean(user?.current_evaluation_id),
    now: Date.now(),
  });
}

export const meta: MetaFunction<typeof loader> = (args) => {
  const d = args.data;
  if (!d) return seo(args, { title: "Club not found · Grader", noindex: true });
  const c = d.club;
  const description =
    `${c.member_count} member${c.member_count === 1 ? "" : "s"}${c.markets ? ` · ${c.markets}` : ""}. ${c.description}`.slice(
      0,
      300,
    );
  return [
    ...seo(args, { title: `${c.name} · Clubs · Grader`, description, image: `/clubs/${c.slug}/card.png` }),
    { property: "og:image:type", content: "image/png" },
    { property: "og:image:width", content: "1200" },
    { property: "og:image:height", content: "630" },
    { property: "og:image:alt", content: `${c.name}, a trader club on Grader` },
  ];
};

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const club = await clubOr404(params.slug);
  const here = `/clubs/${club.slug}`;
  const parsed = parseForm(ClubPageAction, await readForm(request));
  if (!parsed.ok) {
    const message = parsed.errors.intent ? "Unknown action." : (Object.values(parsed.errors)[0] ?? "Check the form.");
    return json(formError(message, parsed.values), { status: 400 });
  }
  const form = parsed.data;
  switch (form.intent) {
    case "join": {
      const r = await joinClub(user.id, club.slug);
      if (!r.ok) return json(formError(r.message), { status: r.status });
      return redirect(`${here}?notice=${r.status === "active" ? "joined" : "requested"}`, 303);
    }
    case "leave": {
      const r = await leaveClub(user.id, club.slug);
      if (!r.ok) return json(formError(r.message), { status: r.status });
      return redirect(`${here}?notice=left`, 303);
    }
    case "post": {
      const r = await createPost(user.id, { body: form.body, attachCard: form.attach_card, clubId: club.id });
      if (!r.ok)
        return json(formError(r.message, { body: form.body }), {
          status: r.status,
          headers: r.retryAfter ? { "Retry-After": String(r.retryAfter) } : undefined,
        });
      return redirect(`${here}?notice=posted`, 303);
    }
    case "moderate": {
      const r = await moderateMember(user.id, club.slug, form.user_id, form.action);
      if (!r.ok) return json(formError(r.message), { status: r.status });
      return redirect(
        `${here}?tab=${form.action === "approve" || form.action === "decline" || form.action === "readmit" ? "manage" : "members"}&notice=done`,
        303,
      );
    }
    case "transfer": {
      // Two steps, both plain forms: the first names the member and asks; the second (confirm=yes) hands over.
      const confirmed = form.confirm === "yes";
      const r = await transferClub(user.id, club.slug, form.user_id, !confirmed);
      if (!r.ok) return json(formError(r.message), { status: r.status });
      if (!confirmed) return json(formDone(null, { transfer_to: String(form.user_id), transfer_name: r.name }));
      return redirect(`${here}?tab=members&notice=transferred`, 303);
    }
    case "delete": {
      const r = await deleteClub(user.id, club.slug, form.confirm_name);
      if (!r.ok) return json(formError(r.message, { confirm_name: form.confirm_name }), { status: r.status });
      return redirect("/clubs?notice=deleted", 303);
    }
    case "report_decision": {
      const r = await decideClubReport(user.id, club.slug, form.post_id, form.decision);
      if (!r.ok) return json(formError(r.message), { status: r.status });
      return redirect(`${here}?tab=manage&notice=done`, 303);
    }
  }
}

function Grade({ tier, stars }: { tier: string | null; stars: number }) {
  if (!tier || !(TIERS as readonly string[]).includes(tier)) return <span className="muted">Not graded</span>;
  return <GradeBadge tier={tier as Tier} stars={stars || TIERS.indexOf(tier as Tier) + 1} />;
}

function MemberAction({ userId, action, label }: { userId: number; action: string; label: string }) {
  return (
    <Form method="post" className="inline-form">
      <input type="hidden" name="intent" value="moderate" />
      <input type="hidden" name="user_id" value={userId} />
      <button type="submit" name="action" value={action} className="btn btn-ghost btn-small">
        {label}
      </button>
    </Form>
  );
}

function TransferAction({ userId }: { userId: number }) {
  return (
    <Form method="post" className="inline-form">
      <input type="hidden" name="user_id" value={userId} />
      <button type="submit" name="intent" value="transfer" className="btn btn-ghost btn-small">
        Make owner
      </button>
    </Form>
  );
}

export default function ClubPage() {
  const d = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const [params] = useSearchParams();
  const { club, membership, tab } = d;
  const member = membership?.status === "active";
  const moderator = member && (membership.role === "owner" || membership.role === "moderator");
  const notice =
    NOTICES[params.get("notice") ?? ""] ??
    (params.get("reported") ? "Thanks, your report was sent to the club's moderators." : null);
  const base = `/clubs/${club.slug}`;
  // With JavaScript the page follows the club: a post, a like, a member, a request or an alert
  // reloads its data (DECISIONS 217); without it, a refresh does.
  useLiveRevalidate((m) => m.kind === "club" && m.data.club_id === club.id, d.signedIn);
  const tabs: [Tab, string][] = [
    ["feed", "Feed"],
    ["alerts", "Trade alerts"],
    ["members", `Members (${formatNumber(club.member_count, 0)})`],
    ["leaderboard", "Leaderboard"],
    ...(moderator ? ([["manage", "Requests & reports"]] as [Tab, string][]) : []),
  ];
  return (
    <Page
      title={club.name}
      lead={club.description}
      actions={
        !d.signedIn ? (
          <Link to={`/signin?next=${encodeURIComponent(base)}`} className="btn btn-primary">
            Log in to join
          </Link>
        ) : membership?.role === "owner" ? (
          <span className="muted small">You own this club</span>
        ) : member || membership?.status === "pending" ? (
          <Form method="post">
            <button type="submit" name="intent" value="leave" className="btn btn-ghost">
              {member ? "Leave the club" : "Withdraw my request"}
            </button>
          </Form>
        ) : membership?.status === "removed" ? (
          <span className="muted small">A moderator removed you from this club</span>
        ) : (
          <Form method="post">
            <button type="submit" name="intent" value="join" className="btn btn-primary">
              {club.join_policy === "open" ? "Join the club" : "Ask to join"}
            </button>
          </Form>
        )
      }
    >
      <p className="muted small" data-testid="club-facts">
        {`${club.join_policy === "open" ? "Open" : "By request"} · ${
          club.min_tier ? `verified ${club.min_tier} or better to join` : "any trader can join"
        } · owner ${displayName(club.owner) || "a trader"}`}
        {club.markets ? ` · Markets: ${club.markets}` : ""}
      </p>
      {membership?.status === "pending" ? (
        <p className="notice" role="status">
          Your request to join is waiting for a moderator.
        </p>
      ) : null}
      {reply?.formError && reply.values.body === undefined ? (
        <p className="form-error" role="alert">
          {reply.formError}
        </p>
      ) : null}
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {reply?.ok && reply.values.transfer_to ? (
        <section className="notice" role="status" aria-label="Hand the club over" data-testid="club-transfer-confirm">
          <p>
            {`Make ${reply.values.transfer_name} the owner of ${club.name}? You will be one of its moderators, and only they can hand it back.`}
          </p>
          <div className="row-actions">
            <Form method="post" className="inline-form">
              <input type="hidden" name="user_id" value={reply.values.transfer_to} />
              <input type="hidden" name="confirm" value="yes" />
              <button type="submit" name="intent" value="transfer" className="btn btn-primary btn-small">
                Hand it over
              </button>
            </Form>
            <Link to={`${base}?tab=members`} className="btn btn-ghost btn-small">
              Cancel
            </Link>
          </div>
        </section>
      ) : null}
      {!d.signedIn ? (
        <EmptyState
          title="Members only"
          action={
            <Link to={`/signup`} className="btn btn-ghost">
              Create an account
            </Link>
          }
        >
          Log in to see who is in this club, how they are graded, and to join.
        </EmptyState>
      ) : (
        <>
          <nav className="tabs" aria-label="Club">
            {tabs.map(([t, label]) => (
              <Link
                key={t}
                to={`${base}?tab=${t}`}
                className={tab === t ? "active" : undefined}
                aria-current={tab === t ? "page" : undefined}
              >
                {label}
              </Link>
            ))}
          </nav>
          {tab === "feed" ? (
            d.feed ? (
              <>
                <Composer
                  action={base}
                  label="Write to the club"
                  canAttach={d.canAttach}
                  error={reply?.values.body !== undefined ? reply.formError : undefined}
                  value={reply?.values.body}
                />
                {d.feed.data.length === 0 ? (
                  <EmptyState title={d.before ? "No older posts" : "No posts yet"}>
                    {d.before ? <Link to={base}>Back to the newest</Link> : "Be the first to write to the club."}
                  </EmptyState>
                ) : (
                  <section aria-label="Club posts" className="feed">
                    {d.feed.data.map((p) => (
                      <PostCard key={p.id} post={p} now={d.now} />
                    ))}
                    <nav className="pager" aria-label="Feed pages">
                      {d.before ? <Link to={base}>Newest</Link> : <span />}
                      {d.feed.next ? (
                        <Link to={`${base}?tab=feed&before=${d.feed.next}`} rel="next">
                          Older posts →
                        </Link>
                      ) : (
                        <span />
                      )}
                    </nav>
                  </section>
                )}
              </>
            ) : (
              <EmptyState title="The feed is for members">
                {membership?.status === "pending"
                  ? "You can read and write here once a moderator approves your request."
                  : "Join the club to read its posts and write to it."}
              </EmptyState>
            )
          ) : null}
          {tab === "alerts" ? (
            d.alerts ? (
              d.alerts.length === 0 ? (
                <EmptyState title="No trade alerts yet">
                  Members who share their trades live (in their settings) appear here after the delay they chose.
                </EmptyState>
              ) : (
                <ul className="club-people" data-testid="club-alerts" aria-label="Members' trade alerts">
                  {d.alerts.map((a) => (
                    <li key={a.id} className="card">
                      <Link to={`/u/${a.traderId}`}>{a.text}</Link>{" "}
                      <time className="muted small" dateTime={a.tradedAt}>
                        {timeAgo(a.tradedAt, d.now)}
                      </time>
                    </li>
                  ))}
                </ul>
              )
            ) : (
              <EmptyState title="Trade alerts are for members">
                Join the club to follow its members&rsquo; live trades in one place.
              </EmptyState>
            )
          ) : null}
          {tab === "members" && d.members ? (
            <div className="paged-table">
              <table className="table" data-testid="club-members">
                <caption className="visually-hidden">Members</caption>
                <thead>
                  <tr>
                    <th>Trader</th>
                    <th>Verified grade</th>
                    <th>Role</th>
                    {moderator ? <th>Moderate</th> : null}
                  </tr>
                </thead>
                <tbody>
                  {d.members.map((m) => (
                    <tr key={m.id}>
                      <td>
                        <TraderLink trader={m} />
                      </td>
                      <td>
                        <Grade tier={m.tier} stars={m.stars} />
                      </td>
                      <td>{m.role === "owner" ? "Owner" : m.role === "moderator" ? "Moderator" : "Member"}</td>
                      {moderator ? (
                        <td>
                          {m.role === "owner" || m.id === d.me ? null : (
                            <div className="row-actions">
                              {m.role === "member" ? (
                                <MemberAction userId={m.id} action="appoint" label="Make moderator" />
                              ) : null}
                              {m.role === "moderator" && membership?.role === "owner" ? (
                                <MemberAction userId={m.id} action="demote" label="Make member" />
                              ) : null}
                              {m.role === "member" || membership?.role === "owner" ? (
                                <MemberAction userId={m.id} action="remove" label="Remove" />
                              ) : null}
                              {membership?.role === "owner" ? <TransferAction userId={m.id} /> : null}
                            </div>
                          )}
                        </td>
                      ) : null}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          {tab === "leaderboard" && d.leaderboard ? (
            d.leaderboard.length === 0 ? (
              <EmptyState title="No graded members yet">
                Members with a verified grade are ranked here by score.
              </EmptyState>
            ) : (
              <div className="paged-table">
                <table className="table" data-testid="club-leaderboard">
                  <caption className="visually-hidden">Club leaderboard</caption>
                  <thead>
                    <tr>
                      <th className="num">#</th>
                      <th>Trader</th>
                      <th>Grade</th>
                      <th className="num">Score</th>
                      <th className="num">Return</th>
                      <th className="num">Max drawdown</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.leaderboard.map((m) => (
                      <tr key={m.id} aria-current={m.id === d.me ? "true" : undefined}>
                        <td className="num">{m.rank}</td>
                        <td>
                          <TraderLink trader={m} />
                        </td>
                        <td>
                          <Grade tier={m.tier} stars={m.stars} />
                        </td>
                        <td className="num">{m.score === null ? "—" : formatNumber(m.score, 1)}</td>
                        <td className="num">{m.return === null ? "—" : formatPercent(m.return)}</td>
                        <td className="num">{m.drawdown === null ? "—" : formatPercent(m.drawdown)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )
          ) : null}
          {tab === "manage" && d.queue && d.reports ? (
            <>
              <section aria-labelledby="club-requests">
                <h2 id="club-requests">Requests to join</h2>
                {d.queue.filter((p) => p.status === "pending").length === 0 ? (
                  <p className="muted">No request is waiting.</p>
                ) : (
                  <ul className="club-people" data-testid="club-requests">
                    {d.queue
                      .filter((p) => p.status === "pending")
                      .map((p) => (
                        <li key={p.id} className="card">
                          <TraderLink trader={p} /> <Grade tier={p.tier} stars={p.stars} />
                          <div className="row-actions">
                            <MemberAction userId={p.id} action="approve" label="Approve" />
                            <MemberAction userId={p.id} action="decline" label="Decline" />
                          </div>
                        </li>
                      ))}
                  </ul>
                )}
              </section>
              <section aria-labelledby="club-reports">
                <h2 id="club-reports">Reported posts</h2>
                {d.reports.length === 0 ? (
                  <p className="muted">No open report on this club&rsquo;s posts.</p>
                ) : (
                  <ul className="club-people" data-testid="club-reports">
                    {d.reports.map((r) => (
                      <li key={r.id} className="card">
                        <p>
                          <Link to={r.root_id ? `/posts/${r.root_id}/${r.id}` : `/posts/${r.id}`}>
                            {`${displayName(r.author) || "Trader"}: ${r.body.length > 120 ? `${r.body.slice(0, 119)}…` : r.body}`}
                          </Link>
                        </p>
                        <p className="muted small">
                          {`${r.reports} report${r.reports === 1 ? "" : "s"}${r.hidden ? " · hidden" : ""} · ${r.reasons.join(" · ")}`}
                        </p>
                        <div className="row-actions">
                          {(["hide", "restore", "dismiss"] as const).map((decision) => (
                            <Form method="post" key={decision} className="inline-form">
                              <input type="hidden" name="intent" value="report_decision" />
                              <input type="hidden" name="post_id" value={r.id} />
                              <button
                                type="submit"
                                name="decision"
                                value={decision}
                                className="btn btn-ghost btn-small"
                              >
                                {decision === "hide" ? "Hide" : decision === "restore" ? "Restore" : "Dismiss"}
                              </button>
                            </Form>
                          ))}
                        </div>
                      </li>
                    ))}
                  </ul>
                )}
              </section>
              <section aria-labelledby="club-removed">
                <h2 id="club-removed">Removed</h2>
                {d.queue.filter((p) => p.status === "removed").length === 0 ? (
                  <p className="muted">Nobody was removed.</p>
                ) : (
                  <ul className="club-people">
                    {d.queue
                      .filter((p) => p.status === "removed")
                      .map((p) => (
                        <li key={p.id} className="card">
                          <TraderLink trader={p} />
                          <div className="row-actions">
                            <MemberAction userId={p.id} action="readmit" label="Let them join again" />
                          </div>
                        </li>
                      ))}
                  </ul>
                )}
              </section>
              {membership?.role === "owner" ? (
                <section aria-labelledby="club-delete">
                  <h2 id="club-delete">Delete the club</h2>
                  <p className="muted">
                    Its members, posts, replies and their reports go with it, for good. To hand the club to someone else
                    instead, choose &ldquo;Make owner&rdquo; beside a member.
                  </p>
                  <Form method="post" className="inline-form">
                    <label>
                      {`Type the club's name, ${club.name}, to confirm`}
                      <input
                        name="confirm_name"
                        required
                        autoComplete="off"
                        defaultValue={reply?.values.confirm_name ?? ""}
                      />
                    </label>
                    <button type="submit" name="intent" value="delete" className="btn btn-danger">
                      Delete the club
                    </button>
                  </Form>
                </section>
              ) : null}
            </>
          ) : null}
        </>
      )}
    </Page>
  );
}
