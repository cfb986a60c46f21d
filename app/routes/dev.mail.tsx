import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { EmptyState, Page } from "~/components/Page";
import { tokenize } from "~/lib/rich-text";
import { listDemoMail, mayReadDemoMail } from "~/server/platform/mail.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Demo mailbox · Grader", noindex: true });

// The demo mailbox: the outbox shown instead of sent, for a local demo only (a 404 elsewhere).
export async function loader({ request }: LoaderFunctionArgs) {
  if (!mayReadDemoMail(request)) throw new Response("Not Found", { status: 404 });
  const mail = await listDemoMail();
  return json({
    mail: mail.map((m) => ({
      id: m.id,
      to: m.to_email,
      subject: m.subject,
      text: m.text,
      at: new Date(m.created_at).toISOString(),
    })),
  });
}

export default function DemoMail() {
  const { mail } = useLoaderData<typeof loader>();
  return (
    <Page
      title="Demo mailbox"
      lead="Demo data: no SMTP server is configured, so mail is not sent anywhere; what the app would send is shown here."
    >
      {mail.length === 0 ? (
        <EmptyState title="No mail yet" />
      ) : (
        <ul className="mail-list">
          {mail.map((m) => (
            <li key={m.id} className="card">
              <p className="muted small">{`${m.at} · to ${m.to}`}</p>
              <h2>{m.subject}</h2>
              <pre className="mail-text">
                <MailText text={m.text} />
              </pre>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}

/** A mail body with its http(s) addresses as links, as a mail client shows them (the rest stays text). */
function MailText({ text }: { text: string }) {
  return (
    <>
      {tokenize(text).map((piece, i) =>
        piece.kind === "link" ? (
          <a key={i} href={piece.href}>
            {piece.text}
          </a>
        ) : (
          piece.text
        ),
      )}
    </>
  );
}
