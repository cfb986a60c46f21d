import type { MetaFunction } from "@remix-run/node";
import { GLOSSARY } from "~/content/glossary";
import { seo } from "~/lib/seo";

export const meta: MetaFunction = (args) =>
  seo(args, {
    title: "Glossary · Grader",
    description: "Every figure on a Grader profile's Stats tab, in one line each.",
  });

export default function Glossary() {
  return (
    <div className="page narrow">
      <h1>Glossary</h1>
      <p className="lead">
        Every figure on a trader's Stats tab in one line. The formulas and their sources are in the white paper.
      </p>
      <dl className="glossary">
        {Object.entries(GLOSSARY).map(([k, e]) => (
          <div key={k} id={k}>
            <dt>{e.term}</dt>
            <dd>{e.text}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
