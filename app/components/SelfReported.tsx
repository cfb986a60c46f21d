/**
 * The mark of a grade made from an uploaded statement (DECISIONS 198): beside the badge on a
 * profile, and as a note on the share and verification pages. The card draws its own.
 */
export function SelfReportedTag() {
  return (
    <span
      className="tag"
      data-testid="self-reported"
      title="Graded from a statement file the trader uploaded, not checked with a broker"
    >
      Self-reported
    </span>
  );
}

export function SelfReportedNote() {
  return (
    <p className="demo-note" role="note" data-testid="self-reported">
      <strong>Self-reported:</strong> this grade comes from a statement file the trader uploaded. Grader graded it as
      given but could not check it with their broker, so it is not on the market leaderboard.
    </p>
  );
}
