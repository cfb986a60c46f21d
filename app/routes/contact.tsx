import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json } from "@remix-run/node";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { Field, FormResult, Honeypot } from "~/components/Field";
import { email, honeypot } from "~/lib/auth-schemas";
import { formDone, formRefused, parseForm } from "~/lib/forms";
import { useRootData } from "~/lib/use-root-data";
import { tooManyRequests } from "~/server/http/auth.server";
import { saveContactMessage } from "~/server/accounts/contact.server";
import { clientIp, hitLimit } from "~/server/http/rate-limit.server";
import { getSessionUser } from "~/server/http/session.server";
import { readForm } from "~/server/http/guards.server";

export { retryAfterHeaders as headers } from "~/lib/route-headers";

export const meta: MetaFunction = (args) =>
  seo(args, {
    title: "Contact · Grader",
    description: "Questions, partnerships or data requests: write to the Grader team.",
  });

const Schema = z.object({
  name: z.string().trim().min(1, "Tell us your name.").max(100, "At most 100 characters."),
  email,
  message: z.string().trim().min(10, "Write at least 10 characters.").max(5000, "At most 5,000 characters."),
  website: honeypot,
});

export async function action({ request }: ActionFunctionArgs) {
  const limit = await hitLimit("contact-ip", clientIp(request));
  if (!limit.ok) return tooManyRequests(limit.retryAfter);
  const parsed = parseForm(Schema, await readForm(request));
  if (!parsed.ok) return json(formRefused(parsed), { status: 400 });
  const user = await getSessionUser(request);
  await saveContactMessage({ ...parsed.data, userId: user?.id ?? null });
  return json(formDone());
}

export default function Contact() {
  const data = useActionData<typeof action>();
  const supportEmail = useRootData()?.ENV.SUPPORT_EMAIL;
  const busy = useNavigation().state === "submitting";
  return (
    <div className="page narrow">
      <h1>Contact us</h1>
      <p className="lead">
        Write to <a href={`mailto:${supportEmail}`}>{supportEmail}</a> or use this form. Data access and deletion
        requests are welcome here too.
      </p>
      {data?.ok ? (
        <p className="form-success" role="status">
          Thank you! Your message reached us and we'll answer by email, usually within two working days.
        </p>
      ) : (
        <Form method="post" className="stack card" noValidate>
          <FormResult error={data?.formError} />
          <Field
            label="Name"
            name="name"
            required
            autoComplete="name"
            defaultValue={data?.values.name ?? ""}
            error={data?.errors.name}
          />
          <Field
            label="Email"
            name="email"
            type="email"
            required
            autoComplete="email"
            defaultValue={data?.values.email ?? ""}
            error={data?.errors.email}
          />
          <Field
            as="textarea"
            label="Message"
            name="message"
            rows={6}
            required
            defaultValue={data?.values.message ?? ""}
            error={data?.errors.message}
          />
          <Honeypot />
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? "Sending…" : "Send message"}
          </button>
        </Form>
      )}
    </div>
  );
}
