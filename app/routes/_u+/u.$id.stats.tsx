import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GradeReport } from "~/components/GradeReport";
import { EmptyState } from "~/components/Page";
import { OlderGrade, StatsAnalytics } from "~/components/StatsAnalytics";
import { traderTabSeo } from "~/lib/seo";
import { statsPage } from "~/server/grades/analytics.server";
import { parseId } from "~/server/http/guards.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => traderTabSeo(args, "Stats");

export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await requireUser(request);
  return json(await statsPage(parseId(params.id), viewer.id, new URL(request.url).searchParams));
}

export default function TraderStats() {
  const { report, analytics, journal, own } = useLoaderData<typeof loader>();
  return (
    <section>
      <h2>Stats</h2>
      {report ? (
        <>
          <GradeReport data={report} />
          {analytics && journal ? (
            <StatsAnalytics
              analytics={analytics}
              journal={journal}
              amounts={report.showAmounts}
              own={own}
              currency={report.evaluation.metrics.baseCurrency}
            />
          ) : (
            <OlderGrade />
          )}
        </>
      ) : (
        <EmptyState title="No grade yet">This trader has not been graded yet.</EmptyState>
      )}
    </section>
  );
}
