import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Field, FormResult } from "~/components/Field";
import { ExchangeKeySchema } from "~/lib/exchange-schemas";
import { EXCHANGE_VIEWS, LINKABLE_EXCHANGES, type ExchangeId } from "~/lib/exchanges";
import { formError, formRefused, parseForm } from "~/lib/forms";
import { seo } from "~/lib/seo";
import { readForm } from "~/server/http/guards.server";
import { requireUser } from "~/server/http/session.server";
import { linkExchangeKey } from "~/server/linking/providers/exchange.server";
import { isSimulated } from "~/server/platform/demo.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Link an exchange · Grader", noindex: true });

/**
 * The demo key that links the demo history (test/mocks/<exchange>.ts): any secret works, in the
 * form every exchange's signing takes (base64 of 64 bytes: Kraken's secrets, Coinbase's Ed25519 keys),
 * and a passphrase for the exchanges whose keys have one (OKX; any passphrase works for the demo keys).
 */
const DEMO_KEY = {
  api_key: "demo-read-only",
  secret: "Z3JhZGVyIGRlbW8gc2VjcmV0OiBhbnkgc2VjcmV0IHdvcmtzIGZvciB0aGUgZGVtbyBrZXlzLi4uLi4uLi4uLg==",
  passphrase: "demo-passphrase",
};

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const demo = LINKABLE_EXCHANGES.some((id) => isSimulated(id));
  const useDemo = demo && new URL(request.url).searchParams.get("demo") === "1";
  return json({ demo, filled: useDemo ? DEMO_KEY : null });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = parseForm(ExchangeKeySchema, await readForm(request));
  if (!parsed.ok) return json(formRefused(parsed), { status: 400 });
  const { exchange, api_key, secret, passphrase } = parsed.data;
  const linked = await linkExchangeKey({
    userId: user.id,
    exchange,
    credentials: { apiKey: api_key, secret, ...(passphrase ? { passphrase } : {}) },
  });
  // What was typed comes back, except the secret and passphrase (forms.ts keepTyped).
  if (!linked.ok) return json(formError(linked.message, parsed.values), { status: linked.status === 409 ? 409 : 400 });
  return redirect("/profile/account#imports");
}

export default function LinkExchange() {
  const { demo, filled } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const typed = reply?.values ?? {};
  const [exchange, setExchange] = useState<ExchangeId>((typed.exchange as ExchangeId | undefined) ?? "binance");
  // Without JavaScript every passphrase field shows (OKX's); with it, only the chosen exchange's.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // A refusal answered to a script-driven post leaves the typed secret in place: cleared, as the
  // page without JavaScript never sends it back.
  useEffect(() => {
    if (reply && !reply.ok)
      for (const name of ["secret", "passphrase"]) {
        const input = document.getElementById(`f-${name}`);
        if (input instanceof HTMLInputElement) input.value = "";
      }
  }, [reply]);
  const anyPassphrase = LINKABLE_EXCHANGES.some((id) => EXCHANGE_VIEWS[id].passphrase);
  const showPassphrase = hydrated ? EXCHANGE_VIEWS[exchange].passphrase : anyPassphrase;
  return (
    <div className="page narrow">
      <h1>Link an exchange</h1>
      <p className="lead">
        Grader reads your trades with a <strong>read-only</strong> API key. A key that can trade or withdraw is refused:
        we ask the exchange what the key may do before keeping it. Your key is stored encrypted, never shown again, and
        deleted when you unlink the account.
      </p>
      {demo ? (
        <p className="card small" data-testid="demo-key">
          Demo mode: the exchanges are simulated.{" "}
          <Link to="?demo=1" replace>
            Use a demo key
          </Link>{" "}
          (<code>demo-read-only</code> and the secret it fills in; any secret in the form the exchange uses works) to
          link a year of demo history; <code>demo-can-trade</code> and <code>demo-can-withdraw</code> show the refusals.
        </p>
      ) : null}
      <Form method="post" className="stack card" noValidate key={filled ? "demo" : "typed"}>
        <FormResult error={reply?.formError} />
        <Field
          as="select"
          label="Exchange"
          name="exchange"
          value={exchange}
          onChange={(e) => setExchange(e.currentTarget.value as ExchangeId)}
          options={LINKABLE_EXCHANGES.map((id) => [id, EXCHANGE_VIEWS[id].name] as const)}
          error={reply?.errors.exchange}
        />
        <Field
          label="API key"
          name="api_key"
          autoComplete="off"
          spellCheck={false}
          required
          defaultValue={typed.api_key ?? filled?.api_key ?? ""}
          error={reply?.errors.api_key}
        />
        <Field
          label="Secret"
          name="secret"
          type="password"
          autoComplete="off"
          required
          defaultValue={filled?.secret ?? ""}
          hint="Shown once by the exchange when the key was made. We never show it back."
          error={reply?.errors.secret}
        />
        {showPassphrase ? (
          <Field
            label="Passphrase (OKX)"
            name="passphrase"
            type="password"
            autoComplete="off"
            hint="The passphrase you chose when you made the key."
            defaultValue={filled?.passphrase ?? ""}
            error={reply?.errors.passphrase}
          />
        ) : null}
        <p className="muted small">How to make a read-only key: {EXCHANGE_VIEWS[exchange].readOnlyKeyHelp}</p>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? "Checking the key…" : "Link the exchange"}
        </button>
      </Form>
      <p>
        <Link to="/profile/account">Back to your accounts</Link>
      </p>
    </div>
  );
}
