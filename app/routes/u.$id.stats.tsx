import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GradeReport } from "~/components/GradeReport";
import { EmptyState } from "~/components/Page";
import { seo } from "~/lib/seo";
import { gradeReportFor } from "~/server/evaluation.server";
import { parseId } from "~/server/guards.server";
import { requireUser } from "~/server/session.server";
import { unlinkedDisclosureFor } from "~/server/unlinked-accounts.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Stats · Grader", noindex: true });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  const report = await gradeReportFor(parseId(params.id), viewer.id);
  return json({ report: report && { ...report, unlinked: await unlinkedDisclosureFor(report.verificationCode) } });
}

export default function TraderStats() {
  const { report } = useLoaderData<typeof loader>();
  return (
    <section>
      <h2>Stats</h2>
      {report ? <GradeReport data={report as never} /> : <EmptyState title="No grade yet">This trader has not been graded yet.</EmptyState>}
    </section>
  );
}
