import type { MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { Link } from "@remix-run/react";
import { EmptyState, Page } from "~/components/Page";

export const meta: MetaFunction = (args) => seo(args, { title: "Stars · Grader", description: "Grader Stars: featured traders graded Gold or better, with verified track records." });

export default function Route() {
  return (
    <Page title="Stars" lead="Featured traders graded Gold or better, with verified track records.">
      <EmptyState title="No Stars yet" action={<Link to="/star-apply" className="btn btn-ghost">Apply to become a Star</Link>}>
        Stars are traders graded Gold or better whose applications were approved.
      </EmptyState>
    </Page>
  );
}
