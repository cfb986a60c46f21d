import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { EmptyState, Page } from "~/components/Page";
import { isLoopbackIp, isLoopbackUrl } from "~/lib/loopback";
import { getEnv } from "~/server/env.server";
import { isDemoMail, listDemoMail } from "~/server/mail.server";
import { clientIp } from "~/server/rate-limit.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Demo mailbox · Grader", noindex: true });

// The demo mailbox exists only in demo mode (no SMTP_URL): the outbox is shown here instead of sent.
// It holds everyone's reset and verification links, so it opens only for a local demo: the app's
// public URL is this machine and so is the visitor. A deployment without SMTP gets a 404 here.
export async function loader({ request }: LoaderFunctionArgs) {
  if (!isDemoMail() || !isLoopbackUrl(getEnv().PUBLIC_URL) || !isLoopbackIp(clientIp(request))) throw new Response("Not Found", { status: 404 });
  const mail = await listDemoMail();
  return json({ mail: mail.map((m) => ({ id: m.id, to: m.to_email, subject: m.subject, text: m.text, at: new Date(m.created_at).toISOString() })) });
}

export default function DemoMail() {
  const { mail } = useLoaderData<typeof loader>();
  return (
    <Page title="Demo mailbox" lead="Demo data: no SMTP server is configured, so mail is not sent anywhere; what the app would send is shown here.">
      {mail.length === 0 ? (
        <EmptyState title="No mail yet" />
      ) : (
        <ul className="mail-list">
          {mail.map((m) => (
            <li key={m.id} className="card">
              <p className="muted small">{`${m.at} · to ${m.to}`}</p>
              <h2>{m.subject}</h2>
              <pre className="mail-text">{m.text}</pre>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
