import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { seo } from "~/lib/seo";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { findArticle } from "~/content/blog";
import { trackLoaderView } from "~/server/community/page-views.server";
import { getSessionUser } from "~/server/http/session.server";

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  // PRODUCT §4: compared as text; no match says so (with a 404 status) and leads back to the list.
  const article = findArticle(String(params.id ?? "")) ?? null;
  if (article) await trackLoaderView(request, context, (await getSessionUser(request))?.id ?? null);
  return json({ article }, { status: article ? 200 : 404 });
}

export const meta: MetaFunction<typeof loader> = (args) => {
  const a = args.data?.article;
  if (!a) return seo(args, { title: "Article not found · Grader Blog", noindex: true });
  return [
    ...seo(args, {
      title: `${a.title} · Grader Blog`,
      description: a.subTitle,
      image: a.mainImageUrl,
      type: "article",
    }),
    { name: "keywords", content: a.keywords.join(", ") },
  ];
};

export default function BlogArticle() {
  const { article } = useLoaderData<typeof loader>();
  if (!article) {
    return (
      <div className="page blog-detail">
        <h1>Article not found</h1>
        <p className="lead">No article of the blog has this address. It may have been mistyped.</p>
        <p>
          <Link to="/blogs">← All articles</Link>
        </p>
      </div>
    );
  }
  return (
    <div className="page blog-detail">
      <article className="prose">
        <h1>{article.title}</h1>
        <p className="lead">{article.subTitle}</p>
        <p className="muted small">
          {`${article.readMins} ${article.readMins === 1 ? "min" : "mins"} read · ${article.date}`}
        </p>
        <img className="hero-image" src={article.mainImageUrl || "/images/logo.svg"} alt="" width={1600} height={900} />
        {/* Trusted, bundled content (app/content), never user input. */}
        <div dangerouslySetInnerHTML={{ __html: article.content }} />
      </article>
      <p>
        <Link to="/blogs">← All articles</Link>
      </p>
    </div>
  );
}
