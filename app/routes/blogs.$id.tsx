import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { findArticle } from "~/content/blog";

export async function loader({ params }: LoaderFunctionArgs) {
  // SPEC §4: compared as text; no match shows a dash for title and content (with a 404 status).
  const article = findArticle(String(params.id ?? "")) ?? null;
  return json({ article }, { status: article ? 200 : 404 });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  const a = data?.article;
  return [
    { title: a ? `${a.title} · Grader Blog` : "Article not found · Grader Blog" },
    { name: "description", content: a?.subTitle ?? "" },
    { name: "keywords", content: a?.keywords.join(", ") ?? "" },
  ];
};

export default function BlogArticle() {
  const { article } = useLoaderData<typeof loader>();
  if (!article) {
    return (
      <div className="page blog-detail">
        <h1>-</h1>
        <div className="prose">-</div>
        <p><Link to="/blogs">All articles</Link></p>
      </div>
    );
  }
  return (
    <div className="page blog-detail">
      <article className="prose">
        <h1>{article.title}</h1>
        <p className="lead">{article.subTitle}</p>
        <p className="muted small">
          {article.readMins} {article.readMins === 1 ? "min" : "mins"} read · {article.date}
        </p>
        <img className="hero-image" src={article.mainImageUrl || "/images/logo.svg"} alt="" width={1600} height={900} />
        {/* Trusted, bundled content (app/content), never user input. */}
        <div dangerouslySetInnerHTML={{ __html: article.content }} />
      </article>
      <p><Link to="/blogs">← All articles</Link></p>
    </div>
  );
}
