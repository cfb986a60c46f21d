import { Link, useFetcher, useLocation, useNavigate, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { EVALUATED_MESSAGES, evaluatedOf, evaluationRunPath, STAY } from "~/lib/evaluation-outcome";
import { useConfirm } from "./ConfirmDialog";
import { ConnectOptions } from "./ConnectOptions";
import { LoadingOverlay } from "./LoadingOverlay";
import { tipsActions } from "./Tips";
import { notify, useModalDialog } from "./Toaster";

type Outcome = { code: number; message?: string | null };
// The action's answer: a refusal at once, or the run that will answer (it runs as a job).
type Asked = Outcome | { run: number };
type Run = { id: number; state: string; outcome: Outcome | null };
// The evaluation action redirects a page's form; this fetcher shows the outcome in place instead.
const ASK_FOR_OUTCOME = { answer: "outcome" };
// How often a running evaluation's status is read.
const FOLLOW_MS = 1000;

/**
 * "Get Grade", or "Refresh Grade" once there is a grade to refresh (PRODUCT §4). Without JavaScript
 * it is a link to /evaluate, where each
 * step is a page. With JavaScript: no linked account → the connect modal; linked → "Confirm To
 * Update Your Grade" → the evaluation runs behind a loading overlay → success toast, or the Tips
 * dialog for codes ≥ 300 (except 2002).
 */
export function GetGradeButton({ linked, graded }: { linked: boolean; graded: boolean }) {
  const fetcher = useFetcher<Asked>();
  const follower = useFetcher<Run>();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const location = useLocation();
  const revalidator = useRevalidator();
  const [connectOpen, setConnectOpen] = useState(false);
  const handled = useRef<unknown>(null);
  // Choosing a way to connect navigates away: the modal must not follow onto the next page.
  useEffect(() => setConnectOpen(false), [location.pathname]);

  async function start(event: React.MouseEvent) {
    event.preventDefault();
    if (!linked) return setConnectOpen(true);
    const ok = await confirm({
      title: "Confirm To Update Your Grade",
      message:
        "We'll import the latest history of your linked accounts and grade it. A new grade uses one try when something changed.",
      okLabel: "Confirm",
    });
    if (ok) fetcher.submit(ASK_FOR_OUTCOME, { method: "post", action: "/evaluate" });
  }

  // An accepted evaluation: read its run until the job has written the outcome.
  const asked = fetcher.data;
  const runId = asked && "run" in asked && fetcher.state === "idle" ? asked.run : null;
  const run = runId !== null && follower.data?.id === runId ? follower.data : null;
  const following = runId !== null && run?.state !== "done";
  useEffect(() => {
    if (runId === null) return;
    follower.load(`${evaluationRunPath(runId)}?${STAY}`);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per run
  }, [runId]);
  useEffect(() => {
    if (!following || follower.state !== "idle" || !run) return;
    const timer = setTimeout(() => runId !== null && follower.load(`${evaluationRunPath(runId)}?${STAY}`), FOLLOW_MS);
    return () => clearTimeout(timer);
  }, [following, follower, run, runId]);

  useEffect(() => {
    const outcome = asked && "run" in asked ? run?.outcome : asked;
    // A run's outcome is handled once: revalidation reloads the run as a new object.
    const key = asked && "run" in asked ? asked.run : outcome;
    if (!outcome || fetcher.state !== "idle" || follower.state !== "idle" || handled.current === key) return;
    handled.current = key;
    if (outcome.code === 200 || outcome.code === 2002) {
      notify.success(EVALUATED_MESSAGES[evaluatedOf(outcome.code)]);
      revalidator.revalidate();
      return;
    }
    if (outcome.code === 502 || !outcome.message) {
      notify.error("Evaluation is failed!");
      return;
    }
    const actions = tipsActions(outcome.code, location.pathname === "/pricing");
    void confirm({ title: "Tips", message: outcome.message, ...actions }).then((ok) => {
      if (!ok) return;
      if (outcome.code === 401 && location.pathname !== "/pricing") navigate("/pricing");
      else if (outcome.code === 403) navigate("/profile/account");
      else if (outcome.code === 406) fetcher.submit(ASK_FOR_OUTCOME, { method: "post", action: "/evaluate" });
    });
  }, [asked, run, follower.state, fetcher.state, confirm, navigate, location.pathname, revalidator, fetcher]);

  return (
    <>
      <Link to="/evaluate" className="btn btn-primary" onClick={start}>
        {graded ? "Refresh Grade" : "Get Grade"}
      </Link>
      <LoadingOverlay show={fetcher.state !== "idle" || following} label="Evaluating your trades…" />
      {connectOpen ? <ConnectDialog onClose={() => setConnectOpen(false)} /> : null}
    </>
  );
}

function ConnectDialog({ onClose }: { onClose: () => void }) {
  const ref = useModalDialog();
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="connect-title" onClose={onClose} onCancel={onClose}>
      <h2 id="connect-title">Get Your Grade</h2>
      <p className="muted">Connect Your Accounts With Get Grade</p>
      <ConnectOptions />
      <div className="dialog-actions">
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
