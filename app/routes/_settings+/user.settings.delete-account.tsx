import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Field } from "~/components/Field";
import { seo } from "~/lib/seo";
import { fieldError, formText, parseForm } from "~/lib/forms";
import { z } from "zod";
import { readForm } from "~/server/http/guards.server";
import { deleteAccount, deletionConfirmation } from "~/server/accounts/own-data.server";
import { destroySession, requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Delete my account · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json({ confirmWith: await deletionConfirmation(user.id) });
}

const CONFIRM = "Confirm to delete your account.";
// The password or e-mail address, checked by deleteAccount. Never sent back as parsed: it may be a password.
const DeleteForm = z.object({ confirmation: formText.pipe(z.string().min(1, CONFIRM)) });

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = parseForm(DeleteForm, await readForm(request));
  if (!parsed.ok) return json(fieldError("confirmation", CONFIRM), { status: 400 });
  const { confirmation } = parsed.data;
  const result = await deleteAccount(user.id, confirmation);
  // A typed e-mail address is shown again; a password never is.
  if (!result.ok)
    return json(
      fieldError("confirmation", result.message, {
        confirmation: confirmation.includes("@") ? confirmation.slice(0, 320) : "",
      }),
      { status: 400 },
    );
  // The sessions went with the account; this clears the browser's cookie.
  return redirect("/?account=deleted", { headers: { "Set-Cookie": await destroySession(request) } });
}

export default function DeleteAccount() {
  const { confirmWith } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <div className="page narrow">
      <h1>Delete my account</h1>
      <p className="lead">
        This removes your profile, linked accounts and their histories, grades, cards, posts, likes, follows and
        messages, and signs you out everywhere. It cannot be undone.{" "}
        <a href="/user/settings/data.json" download>
          Download your data
        </a>{" "}
        first if you want a copy.
      </p>
      <p>
        Public grade records stay in the grade log under a pseudonym that no longer leads to you. The free tries you
        used are remembered (as a keyed hash of your e-mail address), so a new account with the same address does not
        get them again.
      </p>
      <Form method="post" className="stack card" noValidate>
        {confirmWith === "password" ? (
          <Field
            label="Your password"
            name="confirmation"
            type="password"
            required
            autoComplete="current-password"
            error={data?.errors.confirmation}
          />
        ) : (
          <Field
            label="Your e-mail address"
            name="confirmation"
            type="email"
            required
            autoComplete="email"
            defaultValue={data?.values.confirmation}
            error={data?.errors.confirmation}
          />
        )}
        <button type="submit" className="btn btn-danger">
          Delete my account
        </button>
      </Form>
      <p>
        <Link to="/user/settings">Back to settings</Link>
      </p>
    </div>
  );
}
