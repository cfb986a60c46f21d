import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { Link } from "@remix-run/react";
import { articles } from "~/content/blog";
import { trackLoaderView } from "~/server/community/page-views.server";
import { getSessionUser } from "~/server/http/session.server";

export const meta: MetaFunction = (args) => [
  ...seo(args, {
    title: "Blog · Grader",
    description: "Lessons on investing in US stocks: crashes, rallies and how much to invest.",
  }),
  { name: "keywords", content: "investing, US stocks, market crash, rally, position sizing" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await trackLoaderView(request, context, (await getSessionUser(request))?.id ?? null);
  return null;
}

export default function Blogs() {
  return (
    <div className="page blog-list">
      <h1>Blog</h1>
      <ul className="articles">
        {articles.map((a) => (
          <li key={a.id}>
            <Link to={`/blogs/${a.id}`} className="article-card">
              <img src={a.mainImageUrl || "/images/logo.svg"} alt="" width={320} height={180} loading="lazy" />
              <div>
                <h2>{a.title}</h2>
                <p className="muted">{a.subTitle}</p>
                <p className="small muted">{a.date}</p>
              </div>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
