import { Form, Link } from "@remix-run/react";

/**
 * PRODUCT §8's "Tips" for evaluation codes ≥ 300 (except 2002), as a page block for the no-JS
 * flow. The JS flow shows the same words in a dialog (GetGradeButton).
 */
export function TipsBox({ code, message }: { code: number; message: string }) {
  return (
    <section className="card tips" role="alert" aria-labelledby="tips-title">
      <h2 id="tips-title">Tips</h2>
      <p>{message}</p>
      <div className="dialog-actions" style={{ justifyContent: "flex-start" }}>
        {code === 401 ? (
          <>
            <Link to="/pricing" className="btn btn-primary">
              Go now
            </Link>
            <Link to="/evaluate" className="btn btn-ghost">
              Dismiss
            </Link>
          </>
        ) : code === 403 ? (
          <Link to="/profile/account" className="btn btn-primary">
            Link Now
          </Link>
        ) : code === 406 ? (
          <Form method="post" action="/evaluate">
            <button type="submit" className="btn btn-primary">
              OK
            </button>
          </Form>
        ) : (
          <Link to="/evaluate" className="btn btn-primary">
            OK
          </Link>
        )}
      </div>
    </section>
  );
}

export type TipsActions = { okLabel: string; cancelLabel?: string; hideCancel: boolean };

/** The dialog labels for a code (401 on /pricing: only OK). */
export function tipsActions(code: number, onPricing: boolean): TipsActions {
  if (code === 401 && !onPricing) return { okLabel: "Go now", cancelLabel: "Dismiss", hideCancel: false };
  if (code === 403) return { okLabel: "Link Now", hideCancel: true };
  return { okLabel: "OK", hideCancel: true };
}
