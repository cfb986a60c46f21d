import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ACCOUNT_KIND_VIEWS } from "~/lib/account-kinds";
import { formatNumber } from "~/lib/format-number";
import { z } from "zod";
import { Field, FormResult } from "~/components/Field";
import { formDone, formError, parseForm } from "~/lib/forms";
import { Page } from "~/components/Page";
import { displayName } from "~/lib/display-name";
import { seo } from "~/lib/seo";
import { getEnv } from "~/server/platform/env.server";
import {
  claimTask,
  pointsBalance,
  pointsHistory,
  pointsLeaderboard,
  provedWallets,
  recordShare,
  registerClaimWallet,
  registeredWallet,
  taskStates,
  type TaskId,
} from "~/server/community/points.server";
import { getSessionUser, requireUser } from "~/server/http/session.server";
import { readForm } from "~/server/http/guards.server";
import { idOrNull } from "~/lib/ids";

export const meta: MetaFunction = (args) =>
  seo(args, {
    title: "Airdrop · Grader",
    description: "Earn off-chain $GRADER points for getting graded, sharing your card and inviting friends.",
  });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  const leaderboard = (await pointsLeaderboard(20)).map((r) => ({
    rank: r.rank,
    id: r.id,
    name: displayName(r) || `Trader #${r.id}`,
    score: r.score,
    staked: r.staked,
  }));
  if (!user) return json({ me: null, leaderboard });
  const [tasks, balance, history, wallets, wallet] = await Promise.all([
    taskStates(user.id),
    pointsBalance(user.id),
    pointsHistory(user.id, 10),
    provedWallets(user.id),
    registeredWallet(user.id),
  ]);
  const origin = getEnv().PUBLIC_URL;
  return json({
    me: {
      tasks,
      balance,
      history,
      wallets,
      wallet: wallet ? { chain: wallet.chain, address: wallet.address } : null,
      referralLink: user.username ? `${origin}/signup?ref=${encodeURIComponent(user.username)}` : null,
    },
    leaderboard,
  });
}

const CLAIM_MESSAGES = {
  not_eligible: "Finish the task first, then claim it.",
  already_claimed: "You already claimed this task.",
  coming_soon: "This task opens with the community features.",
} as const;

// The tasks a button claims; share_card is credited by sharing itself.
const CLAIMABLE = ["first_grade", "follow_three", "referral"] as const satisfies readonly TaskId[];

const AirdropForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("claim"), task: z.enum(CLAIMABLE, { message: "Unknown task." }) }),
  z.object({ intent: z.literal("share") }),
  z.object({ intent: z.literal("register_wallet"), linked_account_id: idOrNull }),
]);

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = parseForm(AirdropForm, await readForm(request));
  if (!parsed.ok) {
    const message = parsed.errors.intent ? "Unknown action." : (parsed.errors.task ?? "Unknown action.");
    return json(formError(message), { status: 400 });
  }
  const form = parsed.data;
  if (form.intent === "claim") {
    const result = await claimTask(user.id, form.task);
    if (!result.ok)
      return json(formError(CLAIM_MESSAGES[result.reason]), {
        status: result.reason === "already_claimed" ? 409 : 400,
      });
    return json(formDone(`+${result.credited} points!`));
  }
  if (form.intent === "share") {
    const result = await recordShare(user.id);
    if (!result.ok && result.reason === "not_eligible")
      return json(
        formError("You don’t have a grade yet. Connect your investment account to get your grade, then share it!"),
        { status: 400 },
      );
    return redirect(`/share`);
  }
  const walletId = form.linked_account_id;
  const result =
    walletId === null
      ? { ok: false as const, reason: "Pick one of your linked wallets." }
      : await registerClaimWallet(user.id, walletId);
  if (!result.ok) return json(formError(result.reason), { status: 400 });
  return json(formDone("Wallet registered for the future claim."));
}

export default function Airdrop() {
  const { me, leaderboard } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <Page
      title="Airdrop"
      lead="Earn $GRADER points for getting graded, sharing your card and bringing friends. Points are off-chain and have no monetary value."
    >
      <FormResult error={result?.formError} notice={result?.notice} />
      {me ? (
        <>
          <p className="card">
            Your balance: <strong data-testid="points-balance">{formatNumber(me.balance, 0)}</strong> points ·{" "}
            <Link to="/staking">Stake points for a leaderboard multiplier</Link>
          </p>
          <h2>Tasks</h2>
          <ul className="grid plain">
            {me.tasks.map((task) => (
              <li className="card" key={task.id} data-task={task.id} data-state={task.state}>
                <h3>{task.title}</h3>
                <p className="muted">{task.description}</p>
                <p>
                  <strong>+{task.points}</strong> points{task.progress ? ` · ${task.progress}` : ""}
                </p>
                {task.state === "claimed" ? <p>Claimed ✓</p> : null}
                {task.state === "coming_soon" ? (
                  <p className="muted">Coming soon: following traders opens with the community.</p>
                ) : null}
                {task.state === "claimable" ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="claim" />
                    <input type="hidden" name="task" value={task.id} />
                    <button type="submit" className="btn btn-primary" disabled={busy}>
                      Claim {task.points} points
                    </button>
                  </Form>
                ) : null}
                {task.state === "todo" && task.id === "first_grade" ? (
                  <Link to="/evaluate" className="btn btn-ghost">
                    Get graded
                  </Link>
                ) : null}
                {task.state === "todo" && task.id === "share_card" ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="share" />
                    <button type="submit" className="btn btn-ghost" disabled={busy}>
                      Share my card
                    </button>
                  </Form>
                ) : null}
                {task.id === "referral" ? (
                  me.referralLink ? (
                    <p className="muted">
                      Your link: <code>{me.referralLink}</code>
                    </p>
                  ) : (
                    <p className="muted">
                      Set a username in <Link to="/user/settings">settings</Link> to get your referral link.
                    </p>
                  )
                ) : null}
              </li>
            ))}
          </ul>
          <h2>Wallet for the future claim</h2>
          {me.wallet ? (
            <p>
              Registered: <code>{me.wallet.address}</code> ({ACCOUNT_KIND_VIEWS[me.wallet.chain].name}).
            </p>
          ) : (
            <p className="muted">
              No wallet registered yet. Points may be claimable on-chain later; register a wallet you proved by signing.
            </p>
          )}
          {me.wallets.length ? (
            <Form method="post" className="stack">
              <input type="hidden" name="intent" value="register_wallet" />
              <Field
                as="select"
                label="Proved wallet"
                id="claim-wallet"
                name="linked_account_id"
                options={me.wallets.map((w) => [String(w.id), `${w.label} (${w.address})`] as const)}
              />
              <button type="submit" className="btn btn-ghost" disabled={busy}>
                Register this wallet
              </button>
            </Form>
          ) : (
            <p>
              <Link to="/profile/account">Link a MetaMask or Phantom wallet</Link> (you sign a message to prove it is
              yours) to register it.
            </p>
          )}
          {me.history.length ? (
            <>
              <h2>Your points history</h2>
              <table className="table">
                <thead>
                  <tr>
                    <th>When</th>
                    <th>What</th>
                    <th className="num">Points</th>
                  </tr>
                </thead>
                <tbody>
                  {me.history.map((h) => (
                    <tr key={h.id}>
                      <td>{h.createdAt.slice(0, 10)}</td>
                      <td>{h.reason.replace(/^task:/, "task: ").replace(/_/g, " ")}</td>
                      <td className="num">{h.amount > 0 ? `+${h.amount}` : h.amount}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          ) : null}
        </>
      ) : (
        <p className="card">
          <Link to="/signup" className="btn btn-primary">
            Join us for free
          </Link>{" "}
          to earn points: first grade, sharing your card, following three traders and inviting friends each earn points
          once.
        </p>
      )}
      <h2>Leaderboard</h2>
      {leaderboard.length ? (
        <table className="table" data-testid="points-leaderboard">
          <thead>
            <tr>
              <th>#</th>
              <th>Trader</th>
              <th className="num">Score</th>
              <th className="num">Staked</th>
            </tr>
          </thead>
          <tbody>
            {leaderboard.map((r) => (
              <tr key={r.id}>
                <td>{r.rank}</td>
                <td>{r.name}</td>
                <td className="num">{formatNumber(r.score, 0)}</td>
                <td className="num">{formatNumber(r.staked, 0)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No points earned yet. Be the first.</p>
      )}
      <p className="muted">
        Score = points balance + staked points × their lock multiplier (30 days ×1.1, 90 days ×1.25, 180 days ×1.5).
      </p>
    </Page>
  );
}
