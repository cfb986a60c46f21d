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
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Notification settings · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ settings: await getNotificationSettings(user.id), verified: user.email_verified_at !== null });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = parseNotificationSettings(await readForm(request));
  if (!parsed.ok) return json(formError(parsed.message), { status: parsed.status });
  await saveNotificationSettings(user.id, { muted: parsed.muted, digest: parsed.digest });
  return json(formDone());
}

const DIGEST_LABELS = { off: "Never", daily: "A daily summary", weekly: "A weekly summary" } as const;

export default function NotificationSettingsPage() {
  const { settings, verified } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const muted = new Set<NotificationKind>(settings.muted);
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
          {NOTIFICATION_KINDS.map((kind) => (
            <label key={kind} className="check">
              <input type="checkbox" name="kinds" value={kind} defaultChecked={!muted.has(kind)} /> {KIND_LABELS[kind]}
            </label>
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
    </div>
  );
}
