import type { MetaFunction } from "@remix-run/node";
import { GLOSSARY } from "~/content/glossary";
import { ENGINE_CHANGELOG, ENGINE_VERSION } from "~/grading/version";
import { changelogAnchor, engineMajor } from "~/lib/engine-versions";
import { seo } from "~/lib/seo";

export const meta: MetaFunction = (args) =>
  seo(args, {
    title: "Glossary · Grader",
    description:
      "Every figure on a Grader profile's Stats tab, in one line each, and what each engine version changed.",
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
      {/* A recomputed grade's notification links its version's entry here (DECISIONS 168). */}
      <section aria-labelledby="engine-versions">
        <h2 id="engine-versions">Engine versions</h2>
        <p>
          A grade keeps the engine version it was made with. When the engine changes, current grades are recomputed
          under the new version from the history already imported, and each trader is told. This site grades with engine{" "}
          {ENGINE_VERSION}.
        </p>
        {Object.entries(ENGINE_CHANGELOG).map(([version, changes]) => (
          <section key={version} id={changelogAnchor(version)} aria-labelledby={`${changelogAnchor(version)}-title`}>
            <h3 id={`${changelogAnchor(version)}-title`}>{`Engine v${engineMajor(version)} (${version})`}</h3>
            <ul>
              {changes.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
          </section>
        ))}
      </section>
    </div>
  );
}
