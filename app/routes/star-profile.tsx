import type { MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { Link } from "@remix-run/react";
import { EmptyState, Page } from "~/components/Page";

export const meta: MetaFunction = (args) => seo(args, { title: "Star profile · Grader", description: "A Grader Star's public showcase: verified grade, track record and strategy." });

export default function Route() {
  return (
    <Page title="Star profile" lead="A Star's public showcase.">
      <EmptyState title="No Star selected" action={<Link to="/stars" className="btn btn-ghost">Browse Stars</Link>}>
        Open a Star from the directory to see their showcase.
      </EmptyState>
    </Page>
  );
}
