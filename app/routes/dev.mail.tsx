import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { EmptyState, Page } from "~/components/Page";
import { getEnv } from "~/server/env.server";
import { listDemoMail } from "~/server/mail.server";

export const meta: MetaFunction = () => [{ title: "Demo mailbox · Grader" }, { name: "robots", content: "noindex" }];

// The demo mailbox: no mail transport exists yet, so the outbox is shown here. It is hidden in
// production (NODE_ENV=production with a non-localhost PUBLIC_URL) so real users' mail stays private.
export async function loader(_: LoaderFunctionArgs) {
  const env = getEnv();
  if (env.NODE_ENV === "production" && !/^https?:\/\/(localhost|127\.0\.0\.1)(:|\/|$)/.test(env.PUBLIC_URL)) {
    throw new Response("Not Found", { status: 404 });
  }
  const mail = await listDemoMail();
  return json({ mail: mail.map((m) => ({ id: m.id, to: m.to_email, subject: m.subject, text: m.text, at: new Date(m.created_at).toISOString() })) });
}

export default function DemoMail() {
  const { mail } = useLoaderData<typeof loader>();
  return (
    <Page title="Demo mailbox" lead="Demo data: mail is not sent anywhere yet; what the app would send is shown here.">
      {mail.length === 0 ? (
        <EmptyState title="No mail yet" />
      ) : (
        <ul className="mail-list">
          {mail.map((m) => (
            <li key={m.id} className="card">
              <p className="muted small">{m.at} · to {m.to}</p>
              <h2>{m.subject}</h2>
              <pre className="mail-text">{m.text}</pre>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
