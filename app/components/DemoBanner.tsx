/** One slim line on every page while any provider a user meets runs on its simulator. */
export function DemoBanner({ subjects }: { subjects: string }) {
  return (
    <div className="demo-banner" role="note">
      <strong>Demo mode:</strong> {`simulated ${subjects}.`}
    </div>
  );
}

/** On a demo-graded card's pages (share page, /verify): the grade is not from real trades. */
export function DemoDataNote() {
  return (
    <p className="demo-note" role="note">
      <strong>Demo data:</strong> this grade comes from simulated broker or wallet histories, not real trades.
    </p>
  );
}
