import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { GradeReport } from "~/components/GradeReport";
import { EmptyState } from "~/components/Page";
import { seo } from "~/lib/seo";
import { gradeReportFor } from "~/server/evaluation.server";
import { requireUser } from "~/server/session.server";
import { unlinkedDisclosureFor } from "~/server/unlinked-accounts.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Stats · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const report = await gradeReportFor(user.id, user.id);
  return json({ report: report && { ...report, unlinked: await unlinkedDisclosureFor(report.verificationCode) } });
}

export default function ProfileStats() {
  const { report } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  if (!report) {
    return (
      <section>
        <h2>Stats</h2>
        <EmptyState title="No grade yet" action={<Link to="/evaluate" className="btn btn-primary">Get Grade</Link>}>
          Link a broker or wallet and ask for an evaluation to see your dimension stars, returns, drawdown and insights here.
        </EmptyState>
      </section>
    );
  }
  return (
    <section>
      <h2>Stats</h2>
      {params.get("evaluated") ? <p className="form-success" role="status">Evaluated successfully!</p> : null}
      <GradeReport data={report as never} />
    </section>
  );
}
