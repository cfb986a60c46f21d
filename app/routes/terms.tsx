import type { MetaFunction } from "@remix-run/node";
import { LegalArticle } from "~/components/LegalArticle";
import { terms as page } from "~/content/legal";
import { seo } from "~/lib/seo";

export const meta: MetaFunction = (args) =>
  seo(args, { title: `${page.title} · Grader`, description: page.description });

export default function Legal() {
  return <LegalArticle page={page} />;
}
