import { useId, type ReactNode } from "react";
import { GLOSSARY, type GlossaryKey } from "~/content/glossary";

/**
 * A figure's name with its one-line explanation: a link to its glossary entry (works without
 * JavaScript), described by a tooltip that CSS shows on hover and keyboard focus.
 */
export function Term({ k, children }: { k: GlossaryKey; children?: ReactNode }) {
  const id = useId();
  const entry = GLOSSARY[k];
  return (
    <span className="term">
      <a href={`/glossary#${k}`} aria-describedby={id}>
        {children ?? entry.term}
      </a>
      <span role="tooltip" id={id} className="tip">
        {entry.text}
      </span>
    </span>
  );
}
