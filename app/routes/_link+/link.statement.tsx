import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { FormResult } from "~/components/Field";
import { seo } from "~/lib/seo";
import { requireUser } from "~/server/http/session.server";
import { STATEMENT_COLUMNS, STATEMENT_TYPES } from "~/sources/statement/csv";
import { acceptedFormats, MAX_STATEMENT_BYTES } from "~/sources/statement/formats";
import { statementPageAction, type StatementPageReply } from "~/web/statement-upload.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Upload a statement · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  // The template's columns travel as data: importing them into the page would bundle the parser.
  return json({
    formats: acceptedFormats(),
    maxMb: MAX_STATEMENT_BYTES / 1024 / 1024,
    columns: STATEMENT_COLUMNS,
    types: STATEMENT_TYPES,
  });
}

export const action = statementPageAction;

export default function LinkStatement() {
  const { formats, maxMb, columns, types } = useLoaderData<typeof loader>();
  const reply = useActionData<StatementPageReply>();
  const busy = useNavigation().state !== "idle";
  return (
    <div className="page narrow">
      <h1>Upload a statement</h1>
      <p className="lead">
        No broker link for your account? Upload its history as a file and get a grade. A grade from a file is{" "}
        <strong>self-reported</strong>: Grader cannot check it with your broker, so it says so on your card, your
        profile and its verification page, and it is never on the market leaderboard.
      </p>
      <p className="muted small">
        While a broker, exchange or wallet is linked, your grade comes from those only; a statement is kept but graded
        only when nothing else is linked. Uploading again replaces the statement; the same file again changes nothing.
      </p>
      <Form method="post" encType="multipart/form-data" className="stack card">
        <FormResult error={reply?.formError} />
        {reply?.errors.length ? (
          <ul className="form-error small" data-testid="statement-errors">
            {reply.errors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        ) : null}
        <label className="field">
          <span>Statement file</span>
          <input type="file" name="file" accept=".csv,text/csv,.xml,text/xml" required />
        </label>
        <p className="muted small">
          Accepted: {formats}, up to {maxMb} MB, UTF-8.
        </p>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? "Reading the file…" : "Upload and grade"}
        </button>
      </Form>
      <p>
        From Interactive Brokers, upload an Activity Flex Query's XML statement as it is: its futures and CFDs keep
        their contract size, and its currency trades move its cash from one currency to another.{" "}
        <Link to="/link/ibkr">Link Interactive Brokers</Link> says how to make the query, and linking it instead gives a
        verified grade.
      </p>
      <h2>The template</h2>
      <p>
        One row per trade or cash movement, with a header line. Columns: <code>{columns.join(", ")}</code>. Types:{" "}
        <code>{types.join(", ")}</code>.{" "}
        <a href="/statement-template.csv" download>
          Download an example
        </a>
        .
      </p>
      <ul className="small">
        <li>
          <code>date</code>: <code>2024-03-15</code> or <code>2024-03-15T14:30:00Z</code> (UTC unless an offset is
          given).
        </li>
        <li>
          <code>buy</code>/<code>sell</code>: <code>symbol</code>, <code>quantity</code> and <code>price</code> (per
          unit), optional <code>fee</code> and <code>asset_class</code> (stock, etf, crypto, option; stock when empty).
        </li>
        <li>
          Cash rows: <code>amount</code>, always positive (the type gives the direction); a <code>dividend</code> may
          name its <code>symbol</code>; <code>withholding</code> is tax withheld.
        </li>
        <li>
          <code>currency</code>: a three-letter code, USD when empty. <code>account</code>: optional, your own name for
          it.
        </li>
        <li>
          A cell may not start with <code>=</code>, <code>+</code>, <code>-</code>, <code>@</code>, a tab or a carriage
          return: spreadsheets run such a cell as a formula.
        </li>
      </ul>
      <p>
        <Link to="/profile/account">Back to your accounts</Link>
      </p>
    </div>
  );
}
