import { Link } from "@remix-run/react";
import { useState } from "react";
import { createPortal } from "react-dom";
import type { Tier } from "~/lib/vocabulary";
import { formatDay, formatScore } from "~/lib/format-number";
import { GradeBadge } from "./GradeBadge";
import type { HeaderGrade } from "./Header";
import { useModalDialog } from "./Toaster";

/** "My Current Grade": the latest-grade modal with JavaScript, the stats page without. */
export function MyCurrentGrade({ grade }: { grade: NonNullable<HeaderGrade> }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Link
        role="menuitem"
        to="/profile/stats"
        onClick={(e) => {
          e.preventDefault();
          // The account menu closes behind the modal; the modal lives outside it (a closed menu hides its content).
          const menu = e.currentTarget.closest("details");
          if (menu) menu.open = false;
          setOpen(true);
        }}
      >
        My Current Grade
      </Link>
      {open ? createPortal(<LatestGradeModal grade={grade} onClose={() => setOpen(false)} />, document.body) : null}
    </>
  );
}

function LatestGradeModal({ grade, onClose }: { grade: NonNullable<HeaderGrade>; onClose: () => void }) {
  const ref = useModalDialog();
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="latest-grade-title" onClose={onClose} onCancel={onClose}>
      <h2 id="latest-grade-title">My Current Grade</h2>
      <p>
        <GradeBadge tier={grade.tier as Tier} stars={grade.stars} size="lg" />
      </p>
      <p className="muted">
        Score {formatScore(grade.score)}/100 · graded {formatDay(new Date(grade.createdAt))} · code{" "}
        <code>{grade.verificationCode}</code>
      </p>
      <div className="dialog-actions">
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Close
        </button>
        <Link to="/profile/stats" className="btn btn-primary" onClick={onClose}>
          See my stats
        </Link>
      </div>
    </dialog>
  );
}
