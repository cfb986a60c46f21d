import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Field, FormResult } from "~/components/Field";
import { seo } from "~/lib/seo";
import { log } from "~/server/platform/log.server";
import {
  checkDemoClientId,
  checkDemoRedirectUri,
  DEMO_APPLE_IDENTITY,
  demoAppleConsent,
  DemoIdentitySchema,
  requireDemo,
  type DemoIdentity,
} from "~/server/accounts/oauth/demo.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Sign in with Apple (demo) · Grader", noindex: true });

type Choice = { label: string; code: string; idToken: string; user: string };

/** The consent page: its choices when the request is valid (`ok`), else why not. */
type Consent = {
  ok: boolean;
  state: string;
  redirectUri: string;
  choices: Choice[];
  authorize: Record<string, string>;
  error: string | null;
  custom: DemoIdentity | null;
};

/**
 * Demo mode only: stands in for Apple's consent screen. Each choice is a plain form that posts what
 * Apple's response_mode=form_post would (code, state, id_token, user) to our callback; the id_token
 * is signed by the simulator's key, so the callback's real JWKS verification runs.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  requireDemo("apple");
  const params = new URL(request.url).searchParams;
  const state = params.get("state");
  const nonce = params.get("nonce");
  const redirectUri = checkDemoRedirectUri("apple", params.get("redirect_uri"), request);
  const authorize = {
    client_id: params.get("client_id") ?? "",
    redirect_uri: params.get("redirect_uri") ?? "",
    response_type: params.get("response_type") ?? "",
    response_mode: params.get("response_mode") ?? "",
    scope: params.get("scope") ?? "",
    state: state ?? "",
    nonce: nonce ?? "",
  };
  const bad: Consent = { ok: false, state: "", redirectUri: "", choices: [], authorize, error: null, custom: null };
  if (
    !state ||
    !nonce ||
    !redirectUri ||
    !checkDemoClientId("apple", authorize.client_id) ||
    authorize.response_mode !== "form_post"
  ) {
    return json(bad, { status: 400 });
  }
  const identities: DemoIdentity[] = [{ ...DEMO_APPLE_IDENTITY, verified: true }];
  let error: string | null = null;
  let custom: DemoIdentity | null = null;
  if (params.has("email")) {
    const parsed = DemoIdentitySchema.safeParse({
      email: params.get("email"),
      name: params.get("name") ?? "",
      verified: params.get("verified") === "on",
    });
    if (parsed.success) identities.unshift((custom = parsed.data));
    else error = parsed.error.issues[0]?.message ?? "Enter a valid email address.";
  }
  try {
    const choices: Choice[] = [];
    for (const identity of identities) {
      const { code, id_token } = await demoAppleConsent(identity, nonce);
      const [firstName, ...rest] = identity.name.split(" ");
      choices.push({
        label: `${identity.name || identity.email} (${identity.email})`,
        code,
        idToken: id_token,
        user: JSON.stringify({ name: { firstName: firstName ?? "", lastName: rest.join(" ") }, email: identity.email }),
      });
    }
    return json<Consent>(
      { ...bad, ok: true, state, redirectUri: new URL(redirectUri).pathname, choices, error, custom },
      { headers: { "Cache-Control": "no-store" } },
    );
  } catch (e) {
    log("error", "demo apple consent failed", { error: String(e) });
    return json<Consent>({ ...bad, error: "The Apple simulator is not running." }, { status: 503 });
  }
}

export default function DemoAppleConsent() {
  const data = useLoaderData<typeof loader>();
  if (!data.ok) {
    return (
      <div className="page narrow">
        <h1>Sign in with Apple</h1>
        <p className="lead">{data.error ?? "This sign-in request is not valid. Start again from the sign-in page."}</p>
        <a className="btn btn-primary" href="/signin">
          Back to log in
        </a>
      </div>
    );
  }
  return (
    <div className="page narrow">
      <h1>Sign in with Apple</h1>
      <p className="lead">Use your Apple ID to continue to Grader.</p>
      <p className="muted">
        Demo data: no Apple credentials are configured, so this page stands in for Apple. It posts a signed id_token to
        Grader the way Apple does; the signature, nonce and code are checked by the real sign-in code.
      </p>
      {data.choices.map((choice, i) => (
        <form key={i} method="post" action={data.redirectUri} className="card stack" style={{ marginBottom: "1rem" }}>
          <input type="hidden" name="code" value={choice.code} />
          <input type="hidden" name="state" value={data.state} />
          <input type="hidden" name="id_token" value={choice.idToken} />
          <input type="hidden" name="user" value={choice.user} />
          <button type="submit" className="btn btn-primary">
            Continue as {choice.label}
          </button>
        </form>
      ))}
      <form method="get" className="card stack">
        <h2 style={{ margin: 0, fontSize: "1.1rem" }}>Use another Apple ID</h2>
        {Object.entries(data.authorize).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <FormResult error={data.error} />
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="off"
          required
          defaultValue={data.custom?.email ?? ""}
        />
        <Field
          label="Name"
          name="name"
          type="text"
          autoComplete="off"
          defaultValue={data.custom?.name ?? "Demo Apple User"}
        />
        <div className="field">
          <label>
            <input type="checkbox" name="verified" defaultChecked={data.custom ? data.custom.verified : true} /> Apple
            has verified this email
          </label>
        </div>
        <button type="submit" className="btn btn-ghost">
          Use this Apple ID
        </button>
      </form>
      <form method="post" action={data.redirectUri} style={{ marginTop: "1rem" }}>
        <input type="hidden" name="state" value={data.state} />
        <input type="hidden" name="error" value="user_cancelled_authorize" />
        <button type="submit" className="btn btn-ghost">
          Cancel
        </button>
      </form>
    </div>
  );
}
