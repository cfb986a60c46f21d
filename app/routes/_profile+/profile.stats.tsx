import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { GradeReport } from "~/components/GradeReport";
import { EmptyState } from "~/components/Page";
import { OlderGrade, StatsAnalytics } from "~/components/StatsAnalytics";
import { EVALUATED_MESSAGES, readEvaluated } from "~/lib/evaluation-outcome";
import { seo } from "~/lib/seo";
import { statsPage } from "~/server/grades/analytics.server";
import { requireUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => seo(args, { title: "Your stats · Grader", noindex: true });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return json(await statsPage(user.id, user.id, new URL(request.url).searchParams));
}

export default function ProfileStats() {
  const { report, analytics, journal, own } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const evaluated = readEvaluated(params.get("evaluated"));
  if (!report) {
    return (
      <section>
        <h2>Stats</h2>
        <EmptyState
          title="No grade yet"
          action={
            <Link to="/evaluate" className="btn btn-primary">
              Get Grade
            </Link>
          }
        >
          Link a broker or wallet and ask for an evaluation to see your dimension stars, returns, drawdown and insights
          here.
        </EmptyState>
      </section>
    );
  }
  return (
    <section>
      <h2>Stats</h2>
      {evaluated ? (
        <p className="form-success" role="status">
          {EVALUATED_MESSAGES[evaluated]}
        </p>
      ) : null}
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
    </section>
  );
}
