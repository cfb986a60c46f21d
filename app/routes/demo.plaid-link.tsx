import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isSimulated } from "~/server/platform/demo.server";
import { json, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { seo } from "~/lib/seo";
import { completeDemoLink, linkAndDescribe, reconnectAndDescribe } from "~/server/linking/providers/plaid.server";
import { requireUser } from "~/server/http/session.server";
import { readForm, toId } from "~/server/http/guards.server";
import { FormResult } from "~/components/Field";
import { formError, formText, parseForm } from "~/lib/forms";
import { z } from "zod";

export { retryAfterHeaders as headers } from "~/lib/route-headers";

export const meta: MetaFunction = (args) => seo(args, { title: "Connect your broker (demo) · Grader", noindex: true });

// Demo mode only: stands in for Plaid Link, whose script cannot load offline. A server-rendered
// form (works without JavaScript); the credentials go to the Plaid simulator, which answers like
// Link would (a public-sandbox-… token), and the real exchange + import code takes it from there.
function requireDemo() {
  if (!isSimulated("plaid")) throw new Response("Not Found", { status: 404 });
}

const LINK_TOKEN_RE = /^link-sandbox-[0-9a-f-]{36}$/;

export async function loader({ request }: LoaderFunctionArgs) {
  requireDemo();
  await requireUser(request);
  const params = new URL(request.url).searchParams;
  const linkToken = params.get("link_token") ?? "";
  const account = params.get("account") ?? "";
  if (!LINK_TOKEN_RE.test(linkToken)) return json({ ok: false as const, linkToken: "", account: "" }, { status: 400 });
  return json({ ok: true as const, linkToken, account: /^\d{1,9}$/.test(account) ? account : "" });
}

// Exit, or the credentials (the sign-in button, also pressed by Enter); the token and the
// credentials are judged below and by the simulator.
const PlaidLinkForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("exit") }),
  z.object({
    intent: z.literal("submit").optional(),
    link_token: formText,
    account: formText,
    username: formText.transform((s) => s.trim().slice(0, 100)),
    password: formText,
  }),
]);

export async function action({ request }: ActionFunctionArgs) {
  requireDemo();
  const user = await requireUser(request);
  const parsed = parseForm(PlaidLinkForm, await readForm(request));
  if (!parsed.ok) return json(formError("Unknown action."), { status: 400 });
  const form = parsed.data;
  if (form.intent === "exit") return redirect("/profile/account");
  const { link_token: linkToken, account, username, password } = form;
  if (!LINK_TOKEN_RE.test(linkToken)) return redirect("/profile/account?linkError=hiccup");
  if (!username || !password)
    return json(formError("Enter your username and password.", { username }), { status: 400 });
  const outcome = await completeDemoLink(linkToken, username, password);
  if (!outcome.ok) {
    if (outcome.reason === "credentials")
      return json(formError("The username or password provided were not correct. Please try again.", { username }), {
        status: 400,
      });
    return redirect("/profile/account?linkError=hiccup");
  }
  if (outcome.clientUserId !== String(user.id)) return redirect("/profile/account?linkError=hiccup");
  if (outcome.update) {
    const accountId = toId(account);
    if (accountId === null) return redirect("/profile/account?linkError=hiccup");
    return redirect(await reconnectAndDescribe(user.id, accountId));
  }
  if (!outcome.publicToken) return redirect("/profile/account?linkError=hiccup");
  const linked = await linkAndDescribe(user.id, outcome.publicToken);
  if (typeof linked !== "string")
    return json(formError(linked.message, { username }), {
      status: linked.status,
      headers: { "Retry-After": String(linked.retryAfter) },
    });
  return redirect(linked);
}

export default function DemoPlaidLink() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  if (!data.ok) {
    return (
      <div className="page narrow">
        <h1>Connect your broker</h1>
        <p className="lead">This link session is not valid. Start again from your account page.</p>
        <a className="btn btn-primary" href="/profile/account">
          Back to linked accounts
        </a>
      </div>
    );
  }
  const update = data.account !== "";
  return (
    <div className="page narrow">
      <h1>{update ? "Reconnect First Platypus Bank" : "Connect your broker"}</h1>
      <p className="lead">Log in to First Platypus Bank to share your investment accounts with Grader.</p>
      <p className="muted">
        Demo data: no Plaid credentials are configured, so this page stands in for Plaid Link. Use{" "}
        <strong>user_good</strong> / <strong>pass_good</strong>. The token it returns still goes through the real
        exchange and import, answered by a local simulator.
      </p>
      <FormResult error={result?.formError} />
      <Form method="post" className="card stack">
        <input type="hidden" name="link_token" value={data.linkToken} />
        <input type="hidden" name="account" value={data.account} />
        <div className="field">
          <label htmlFor="plaid-username">Username</label>
          <input
            id="plaid-username"
            name="username"
            type="text"
            autoComplete="off"
            required
            defaultValue={result?.values.username ?? ""}
          />
        </div>
        <div className="field">
          <label htmlFor="plaid-password">Password</label>
          <input id="plaid-password" name="password" type="password" autoComplete="off" required />
        </div>
        <button type="submit" name="intent" value="submit" className="btn btn-primary" disabled={busy}>
          {busy ? "Connecting…" : "Submit"}
        </button>
      </Form>
      <Form method="post" style={{ marginTop: "1rem" }}>
        <input type="hidden" name="link_token" value={data.linkToken} />
        <button type="submit" name="intent" value="exit" className="btn btn-ghost" formNoValidate>
          Exit
        </button>
      </Form>
    </div>
  );
}
