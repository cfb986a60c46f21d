import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { EmptyState } from "~/components/Page";
import { traderTabSeo } from "~/lib/seo";
import { formatDay, formatScore } from "~/lib/format-number";
import { gradeHistory } from "~/server/grades/evaluation.server";
import { parseId } from "~/server/http/guards.server";
import { requireUser } from "~/server/http/session.server";
import { getReadDbUnlessOwn } from "~/server/platform/db.server";

export const meta: MetaFunction = (args) => traderTabSeo(args, "Grade history");

// A trader's grade history (the trades themselves are under Transactions).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const id = parseId(params.id);
  return json({ history: await gradeHistory(id, undefined, await getReadDbUnlessOwn(viewer.id, id)) });
}

export default function TraderHistory() {
  const { history } = useLoaderData<typeof loader>();
  return (
    <section>
      <h2>History</h2>
      {history.length === 0 ? (
        <EmptyState title="No grades yet">This trader has not been graded yet.</EmptyState>
      ) : (
        <table className="table">
          <caption className="visually-hidden">Grade history</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Tier</th>
              <th scope="col">Score</th>
              <th scope="col">Verification code</th>
            </tr>
          </thead>
          <tbody>
            {history.map((h) => (
              <tr key={h.id}>
                <td>{formatDay(new Date(h.created_at))}</td>
                <td>{h.tier ?? "—"}</td>
                <td>{formatScore(h.score)}</td>
                <td>
                  <code>{h.verification_code}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
