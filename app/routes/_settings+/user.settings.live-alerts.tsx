import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { formDone, formRefused, parseForm } from "~/lib/forms";
import { seo } from "~/lib/seo";
import { ALERT_DELAYS, ALERT_DELAY_LABELS, TradeAlertSettingsForm } from "~/lib/trade-alerts";
import { getTradeAlertSettings, saveTradeAlertSettings } from "~/server/community/trade-alerts.server";
import { readForm } from "~/server/http/guards.server";
import { requireUser } from "~/server/http/session.server";

// "Share my trades live" (issue 34 point 3, DECISIONS 215): off by default; a delay and the sizes.

export const meta: MetaFunction = (args) => seo(args, { title: "Live trade alerts · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const settings = await getTradeAlertSettings(user.id);
  return json({ settings });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = parseForm(TradeAlertSettingsForm, await readForm(request));
  if (!parsed.ok) return json(formRefused(parsed), { status: 400 });
  const { enabled, delay, sizes } = parsed.data;
  await saveTradeAlertSettings(user.id, { enabled, delay, hideSizes: sizes === "hidden" });
  return json(
    formDone(enabled ? "Your trades are shared live with your subscribers." : "Your trades are not shared live."),
  );
}

export default function LiveAlertSettingsPage() {
  const { settings } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  // What was typed when the form came back refused; else what is saved.
  const typed = reply && !reply.ok ? reply.values : null;
  const enabled = typed ? typed.enabled === "on" : settings.enabled;
  const delay = typed?.delay ?? settings.delay;
  const sizes = typed?.sizes ?? (settings.hideSizes ? "hidden" : "shown");
  return (
    <div className="page narrow">
      <p>
        <Link to="/user/settings">← Settings</Link>
      </p>
      <h1>Live trade alerts</h1>
      <p className="muted">
        Followers who subscribe to your alerts are told when a new trade of yours is imported: the symbol, buy or sell,
        your verified tier and the trade’s share of your portfolio. Never a sum of money. Trades from before you turn
        this on, and the history of a newly linked account, are never sent.
      </p>
      <Form method="post" className="stack card">
        {reply?.notice ? (
          <p className="form-success" role="status">
            {reply.notice}
          </p>
        ) : null}
        {reply?.formError ? (
          <p className="field-error" role="alert">
            {reply.formError}
          </p>
        ) : null}
        <label className="check">
          <input type="checkbox" name="enabled" value="on" defaultChecked={enabled} /> Share my trades live
        </label>
        <fieldset className="field">
          <legend>When</legend>
          {ALERT_DELAYS.map((d) => (
            <label key={d} className="check">
              <input type="radio" name="delay" value={d} defaultChecked={delay === d} /> {ALERT_DELAY_LABELS[d]}
            </label>
          ))}
          <p className="muted small">Your time zone is {settings.timeZone} (change it in your settings).</p>
          {reply?.errors.delay ? (
            <p className="field-error" role="alert">
              {reply.errors.delay}
            </p>
          ) : null}
        </fieldset>
        <fieldset className="field">
          <legend>Sizes</legend>
          <label className="check">
            <input type="radio" name="sizes" value="hidden" defaultChecked={sizes === "hidden"} /> Hidden: the share of
            my portfolio only
          </label>
          <label className="check">
            <input type="radio" name="sizes" value="shown" defaultChecked={sizes === "shown"} /> Also the quantity
            (shares, coins, contracts)
          </label>
          {reply?.errors.sizes ? (
            <p className="field-error" role="alert">
              {reply.errors.sizes}
            </p>
          ) : null}
        </fieldset>
        <button type="submit" className="btn btn-primary">
          Save live trade alerts
        </button>
      </Form>
      <p className="muted small">
        To get other traders’ alerts, follow them and choose “Get live trade alerts” on their profile. You choose how
        they reach you (bell, push, e-mail summary) in <Link to="/user/settings/notifications">Notifications</Link>.
      </p>
    </div>
  );
}
