import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Field, FormResult } from "~/components/Field";
import { seo } from "~/lib/seo";
import { log } from "~/server/platform/log.server";
import {
  checkDemoClientId,
  checkDemoRedirectUri,
  DEMO_GOOGLE_IDENTITY,
  demoGoogleCode,
  DemoIdentitySchema,
  requireDemo,
} from "~/server/accounts/oauth/demo.server";
import { readForm } from "~/server/http/guards.server";
import { formError, formText, parseForm } from "~/lib/forms";
import { z } from "zod";

export const meta: MetaFunction = (args) => seo(args, { title: "Sign in with Google (demo) · Grader", noindex: true });

// Demo mode only: stands in for Google's account chooser (see app/server/oauth/demo.server.ts).
export async function loader({ request }: LoaderFunctionArgs) {
  requireDemo("google");
  const params = new URL(request.url).searchParams;
  const state = params.get("state");
  const redirectUri = checkDemoRedirectUri("google", params.get("redirect_uri"), request);
  if (!state || !redirectUri || !checkDemoClientId("google", params.get("client_id"))) {
    return json({ ok: false as const, state: "", redirectUri: "", preset: DEMO_GOOGLE_IDENTITY }, { status: 400 });
  }
  return json({ ok: true as const, state, redirectUri, preset: DEMO_GOOGLE_IDENTITY });
}

function back(redirectUri: string, params: Record<string, string>) {
  return redirect(`${redirectUri}?${new URLSearchParams(params)}`);
}

const INVALID_REQUEST = "This sign-in request is not valid. Start again from the sign-in page.";
// The request being answered (hidden fields), checked before the choice as Google would.
const ConsentRequest = z.object({ state: formText, redirect_uri: formText });
// Cancel, or continue with an identity: the preset's hidden fields or the typed ones. Built when
// used: DemoIdentitySchema is server code, absent from the browser bundle that also runs this module.
const consentChoice = () =>
  z.discriminatedUnion("intent", [
    z.object({ intent: z.literal("deny") }),
    z.object({
      intent: z.literal("allow").optional(),
      email: DemoIdentitySchema.shape.email,
      name: DemoIdentitySchema.shape.name,
      verified: formText.transform((v) => v === "on"),
    }),
  ]);

export async function action({ request }: ActionFunctionArgs) {
  requireDemo("google");
  const form = await readForm(request);
  const asked = parseForm(ConsentRequest, form);
  const state = asked.ok ? asked.data.state : "";
  const redirectUri = asked.ok ? checkDemoRedirectUri("google", asked.data.redirect_uri, request) : null;
  if (!state || !redirectUri) return json(formError(INVALID_REQUEST), { status: 400 });
  const choice = parseForm(consentChoice(), form);
  if (!choice.ok) return json(formError(choice.errors.email ?? choice.errors.name ?? INVALID_REQUEST), { status: 400 });
  if (choice.data.intent === "deny") return back(redirectUri, { error: "access_denied", state });
  const { email, name, verified } = choice.data;
  try {
    return back(redirectUri, { code: await demoGoogleCode({ email, name, verified }), state });
  } catch (error) {
    log("error", "demo google consent failed", { error: String(error) });
    return back(redirectUri, { error: "server_error", state });
  }
}

export default function DemoGoogleConsent() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (!data.ok) {
    return (
      <div className="page narrow">
        <h1>Sign in with Google</h1>
        <p className="lead">This sign-in request is not valid. Start again from the sign-in page.</p>
        <a className="btn btn-primary" href="/signin">
          Back to log in
        </a>
      </div>
    );
  }
  const hidden = (
    <>
      <input type="hidden" name="state" value={data.state} />
      <input type="hidden" name="redirect_uri" value={data.redirectUri} />
    </>
  );
  return (
    <div className="page narrow">
      <h1>Sign in with Google</h1>
      <p className="lead">Choose an account to continue to Grader.</p>
      <p className="muted">
        Demo data: no Google credentials are configured, so this page stands in for Google. The code it returns still
        goes through the real token exchange, answered by a local simulator.
      </p>
      <FormResult error={result?.formError} />
      <form method="post" className="card stack">
        {hidden}
        <input type="hidden" name="email" value={data.preset.email} />
        <input type="hidden" name="name" value={data.preset.name} />
        <input type="hidden" name="verified" value="on" />
        <button type="submit" name="intent" value="allow" className="btn btn-primary">
          Continue as {data.preset.name} ({data.preset.email})
        </button>
      </form>
      <form method="post" className="card stack" style={{ marginTop: "1rem" }}>
        <h2 style={{ margin: 0, fontSize: "1.1rem" }}>Use another account</h2>
        {hidden}
        <Field label="Email" name="email" type="email" autoComplete="off" required />
        <Field label="Name" name="name" type="text" autoComplete="off" defaultValue="Demo Google User" />
        <div className="field">
          <label>
            <input type="checkbox" name="verified" defaultChecked /> Google has verified this email
          </label>
        </div>
        <button type="submit" name="intent" value="allow" className="btn btn-ghost">
          Continue
        </button>
      </form>
      <form method="post" style={{ marginTop: "1rem" }}>
        {hidden}
        <button type="submit" name="intent" value="deny" className="btn btn-ghost">
          Cancel
        </button>
      </form>
    </div>
  );
}
