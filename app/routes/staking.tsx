import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { FormResult } from "~/components/Field";
import { Page } from "~/components/Page";
import { seo } from "~/lib/seo";
import { formatDay, formatNumber } from "~/lib/format-number";
import {
  MIN_STAKE,
  pointsBalance,
  STAKE_LOCKS,
  stakePoints,
  stakesOf,
  unstakePoints,
} from "~/server/community/points.server";
import { requireUser } from "~/server/http/session.server";
import { readForm } from "~/server/http/guards.server";
import { idOrNull } from "~/lib/ids";
import { formDone, formError, formText, parseForm } from "~/lib/forms";

export const meta: MetaFunction = (args) =>
  seo(args, {
    title: "Staking · Grader",
    description: "Stake $GRADER points for 30, 90 or 180 days for a leaderboard multiplier.",
  });

// Built in the loader: *.server modules are stubs in the browser bundle.
const lockOptions = () => Object.entries(STAKE_LOCKS).map(([days, multiplier]) => ({ days: Number(days), multiplier }));

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [balance, stakes] = await Promise.all([pointsBalance(user.id), stakesOf(user.id)]);
  // One key per rendered form: submitting it twice stakes once.
  return json({
    me: { balance, stakes, requestKey: crypto.randomUUID(), now: new Date().toISOString() },
    locks: lockOptions(),
    minStake: MIN_STAKE,
  });
}

// Plain decimal digits (commas and spaces as thousands separators): Number() alone would take "0x10" as 16 and "1e2" as 100.
const StakeAmount = z
  .string()
  .transform((s) => s.replace(/[,\s]/g, ""))
  .pipe(z.string().regex(/^\d{1,15}$/))
  .transform(Number);

// The lock and the request key are judged by stakePoints (an unknown lock is the same refusal).
const StakingForm = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("stake"),
    amount: StakeAmount,
    lock_days: formText.transform(Number),
    request_key: formText,
  }),
  z.object({ intent: z.literal("unstake"), stake_id: idOrNull }),
]);

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const invalid = `Stake a whole number of at least ${MIN_STAKE} points for 30, 90 or 180 days.`;
  const parsed = parseForm(StakingForm, await readForm(request));
  if (!parsed.ok) return json(formError(parsed.errors.intent ? "Unknown action." : invalid), { status: 400 });
  const form = parsed.data;
  if (form.intent === "stake") {
    const { amount, lock_days: lockDays } = form;
    const result = await stakePoints(user.id, amount, lockDays, form.request_key);
    if (!result.ok) {
      const error = result.reason === "insufficient" ? "You don't have that many points." : invalid;
      return json(formError(error), { status: 400 });
    }
    return json(
      formDone(
        result.created
          ? `Staked ${formatNumber(amount, 0)} points for ${lockDays} days.`
          : "That stake was already made.",
      ),
    );
  }
  if (form.stake_id === null) return json(formError("No such stake."), { status: 404 });
  const result = await unstakePoints(user.id, form.stake_id);
  if (!result.ok) {
    const error = {
      locked: "This stake is still locked. You can unstake it after its unlock date.",
      not_found: "No such stake.",
      already_unstaked: "This stake was already returned.",
    }[result.reason];
    return json(formError(error), { status: result.reason === "not_found" ? 404 : 409 });
  }
  return json(formDone(`${formatNumber(result.returned, 0)} points returned to your balance.`));
}

const day = (iso: string) => formatDay(new Date(iso));

export default function Staking() {
  const { me, locks, minStake } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  return (
    <Page
      title="Staking"
      lead="Lock $GRADER points for 30, 90 or 180 days to multiply their weight on the points leaderboard. Points are off-chain and have no monetary value."
    >
      <div className="grid">
        {locks.map((l) => (
          <article className="card" key={l.days}>
            <h2>{l.days} days</h2>
            <p className="price">×{l.multiplier}</p>
            <p className="muted">Leaderboard weight while locked.</p>
          </article>
        ))}
      </div>
      <FormResult error={result?.formError} notice={result?.notice} />
      <>
        <p>
          Available: <strong data-testid="points-balance">{formatNumber(me.balance, 0)}</strong> points.{" "}
          <Link to="/airdrop">Earn more</Link>
        </p>
        <Form method="post" className="card stack">
          <input type="hidden" name="intent" value="stake" />
          <input type="hidden" name="request_key" value={me.requestKey} />
          <div className="field">
            <label htmlFor="stake-amount">Points to stake (at least {minStake})</label>
            <input id="stake-amount" name="amount" inputMode="numeric" required />
          </div>
          <fieldset className="field">
            <legend>Lock period</legend>
            {locks.map((l, i) => (
              <label key={l.days}>
                <input type="radio" name="lock_days" value={l.days} defaultChecked={i === 0} /> {l.days} days (×
                {l.multiplier})
              </label>
            ))}
          </fieldset>
          <button type="submit" className="btn btn-primary" disabled={busy || me.balance < minStake}>
            Stake
          </button>
        </Form>
        <h2>Your positions</h2>
        {me.stakes.length ? (
          <table className="table" data-testid="stakes">
            <thead>
              <tr>
                <th className="num">Points</th>
                <th>Lock</th>
                <th>Started</th>
                <th>Unlocks</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {me.stakes.map((s) => {
                const unlocked = new Date(s.unlocksAt) <= new Date(me.now);
                return (
                  <tr key={s.id}>
                    <td className="num">{formatNumber(s.amount, 0)}</td>
                    <td>
                      {s.lockDays} days ×{s.multiplier}
                    </td>
                    <td>{day(s.startedAt)}</td>
                    <td>{day(s.unlocksAt)}</td>
                    <td>
                      {s.unstakedAt ? (
                        `Returned ${day(s.unstakedAt)}`
                      ) : unlocked ? (
                        <Form method="post">
                          <input type="hidden" name="intent" value="unstake" />
                          <input type="hidden" name="stake_id" value={s.id} />
                          <button type="submit" className="btn btn-ghost" disabled={busy}>
                            Unstake
                          </button>
                        </Form>
                      ) : (
                        "Locked"
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        ) : (
          <p className="muted">No stakes yet.</p>
        )}
      </>
    </Page>
  );
}
