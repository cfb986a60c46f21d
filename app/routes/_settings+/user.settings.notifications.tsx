import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  DIGEST_FREQUENCIES,
  KIND_LABELS,
  NOTIFICATION_KINDS,
  parseNotificationSettings,
  type NotificationKind,
} from "~/lib/notifications";
import { seo } from "~/lib/seo";
import { readForm } from "~/server/http/guards.server";
import { formDone, formError } from "~/lib/forms";
import { getNotificationSettings, saveNotificationSettings } from "~/server/community/notifications.server";
import { vapidKeys } from "~/server/community/push.server";
import { PushDevice } from "~/components/PushDevice";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Notification settings · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [settings, { publicKey }] = await Promise.all([getNotificationSettings(user.id), vapidKeys()]);
  return json({ settings, verified: user.email_verified_at !== null, pushKey: publicKey });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = parseNotificationSettings(await readForm(request));
  if (!parsed.ok) return json(formError(parsed.message), { status: parsed.status });
  await saveNotificationSettings(user.id, { muted: parsed.muted, push: parsed.push, digest: parsed.digest });
  return json(formDone());
}

const DIGEST_LABELS = { off: "Never", daily: "A daily summary", weekly: "A weekly summary" } as const;

export default function NotificationSettingsPage() {
  const { settings, verified, pushKey } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const muted = new Set<NotificationKind>(settings.muted);
  const pushed = new Set<NotificationKind>(settings.push);
  return (
    <div className="page narrow">
      <p>
        <Link to="/user/settings">← Settings</Link>
      </p>
      <h1>Notifications</h1>
      <Form method="post" className="stack card">
        {data?.ok ? (
          <p className="form-success" role="status">
            Your notification settings are saved.
          </p>
        ) : null}
        {data?.formError ? (
          <p className="field-error" role="alert">
            {data.formError}
          </p>
        ) : null}
        <fieldset className="field">
          <legend>Tell me about</legend>
          <p className="muted small" id="push-hint">
            “Push” also sends it to the devices where you turned push on (below).
          </p>
          {NOTIFICATION_KINDS.map((kind) => (
            <div key={kind} className="notify-kind">
              <label className="check">
                <input type="checkbox" name="kinds" value={kind} defaultChecked={!muted.has(kind)} />{" "}
                {KIND_LABELS[kind]}
              </label>
              <label className="check small">
                <input
                  type="checkbox"
                  name="push"
                  value={kind}
                  defaultChecked={pushed.has(kind)}
                  aria-label={`Push: ${KIND_LABELS[kind]}`}
                  aria-describedby="push-hint"
                />{" "}
                Push
              </label>
            </div>
          ))}
        </fieldset>
        <fieldset className="field">
          <legend>E-mail me unread notifications</legend>
          {DIGEST_FREQUENCIES.map((f) => (
            <label key={f} className="check">
              <input type="radio" name="digest" value={f} defaultChecked={settings.digest === f} /> {DIGEST_LABELS[f]}
            </label>
          ))}
          {verified ? null : (
            <p className="muted small">Summaries go only to a verified e-mail address: verify yours first.</p>
          )}
        </fieldset>
        <button type="submit" className="btn btn-primary">
          Save notification settings
        </button>
      </Form>
      <section className="stack card" aria-labelledby="push-device">
        <h2 id="push-device">Push on this device</h2>
        <PushDevice publicKey={pushKey} />
      </section>
    </div>
  );
}
