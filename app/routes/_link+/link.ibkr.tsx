import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Field, FormResult } from "~/components/Field";
import { IbkrFlexSchema } from "~/lib/ibkr-schemas";
import { formError, formRefused, parseForm } from "~/lib/forms";
import { seo } from "~/lib/seo";
import { readForm } from "~/server/http/guards.server";
import { requireUser } from "~/server/http/session.server";
import { linkIbkr } from "~/server/linking/providers/ibkr.server";
import { isSimulated } from "~/server/platform/demo.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Link Interactive Brokers · Grader", noindex: true });

/** The demo token that links the demo account (test/mocks/ibkr.ts): any query id works. */
const DEMO = { token: "demo", query_id: "123456" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const demo = isSimulated("ibkr");
  const useDemo = demo && new URL(request.url).searchParams.get("demo") === "1";
  return json({ demo, filled: useDemo ? DEMO : null });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = parseForm(IbkrFlexSchema, await readForm(request));
  if (!parsed.ok) return json(formRefused(parsed), { status: 400 });
  const linked = await linkIbkr({
    userId: user.id,
    credentials: { token: parsed.data.token, queryId: parsed.data.query_id },
  });
  if (!linked.ok)
    return json(formError(linked.message, parsed.values), {
      status: linked.status === 409 ? 409 : linked.status === 502 ? 502 : linked.status === 429 ? 429 : 400,
    });
  return redirect("/profile/account#imports");
}

export default function LinkIbkr() {
  const { demo, filled } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const typed = reply?.values ?? {};
  return (
    <div className="page narrow">
      <h1>Link Interactive Brokers</h1>
      <p className="lead">
        Grader reads your statements through IBKR&apos;s <strong>Flex Web Service</strong>: a token that can only
        download the reports you define, never trade or move money. Your token is stored encrypted, never shown again,
        and deleted when you unlink the account.
      </p>
      {demo ? (
        <p className="card small" data-testid="demo-token">
          Demo mode: Interactive Brokers is simulated.{" "}
          <Link to="?demo=1" replace>
            Use the demo token
          </Link>{" "}
          (<code>demo</code>, any query id) to link two years of demo history: stocks in dollars and euros, an ES future
          over a roll, EUR.USD, options and a split.
        </p>
      ) : null}
      <section className="card stack" aria-labelledby="ibkr-guide">
        <h2 id="ibkr-guide">Before you start: an Activity Flex Query and a token</h2>
        <ol className="stack small">
          <li>
            Log in to IBKR&apos;s Client Portal and open <strong>Performance &amp; Reports → Flex Queries</strong>.
          </li>
          <li>
            Under <strong>Activity Flex Query</strong>, press <strong>+</strong> to create one. Name it
            &quot;Grader&quot;.
          </li>
          <li>
            Add these sections, each with <strong>Select All</strong> fields: <strong>Account Information</strong>,{" "}
            <strong>Trades</strong> (Executions), <strong>Cash Transactions</strong>, <strong>Corporate Actions</strong>
            , <strong>Open Positions</strong> and <strong>Financial Instrument</strong> details (
            <strong>Conversion Rates</strong> too if offered).
          </li>
          <li>
            In Delivery Configuration choose Format <strong>XML</strong> and Period{" "}
            <strong>Last 365 Calendar Days</strong> (Grader asks for each year in turn).
          </li>
          <li>
            In General Configuration keep the date format <strong>yyyyMMdd</strong> and the time format{" "}
            <strong>HHmmss</strong>; answer <strong>No</strong> to &quot;Include Canceled Trades?&quot;. Save.
          </li>
          <li>
            Copy the <strong>Query ID</strong> shown beside the new query in the Flex Queries list.
          </li>
          <li>
            Open <strong>Flex Web Service Configuration</strong> (the gear beside Flex Queries), enable the service and{" "}
            <strong>generate a token</strong>. Choose a long validity (up to a year) and no IP restriction: Grader asks
            for your statements from its own servers. A new token replaces the old one.
          </li>
        </ol>
      </section>
      <Form method="post" className="stack card" noValidate key={filled ? "demo" : "typed"}>
        <FormResult error={reply?.formError} />
        <Field
          label="Flex token"
          name="token"
          autoComplete="off"
          spellCheck={false}
          required
          defaultValue={typed.token ?? filled?.token ?? ""}
          hint="From Flex Web Service Configuration. We never show it back."
          error={reply?.errors.token}
        />
        <Field
          label="Query ID"
          name="query_id"
          inputMode="numeric"
          autoComplete="off"
          required
          defaultValue={typed.query_id ?? filled?.query_id ?? ""}
          hint="The number beside your Activity Flex Query."
          error={reply?.errors.query_id}
        />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? "Asking Interactive Brokers for your statement…" : "Link Interactive Brokers"}
        </button>
        <p className="muted small">
          Linking waits while IBKR generates your latest statement (a few seconds); the older years import afterwards.
        </p>
      </Form>
      <p>
        <Link to="/profile/account">Back to your accounts</Link>
      </p>
    </div>
  );
}
