import { Link, useNavigate } from "@remix-run/react";
import { useEffect, useState } from "react";
import { NO_GRADE_MESSAGE, ShareModal } from "./ShareModal";
import { notify } from "./Toaster";

/** PRODUCT §3: set by the airdrop flow; opens the share modal once, then is removed. */
export const PENDING_AIRDROP_SHARE_KEY = "grader.pendingAirdropShare";

type ShareUser = { id: number; is_star: boolean };

/**
 * The header's Share button. Without JavaScript it is a link to /share (or /evaluate without a
 * grade); with JavaScript it opens the share modal, or shows PRODUCT §5's message and goes to /evaluate.
 */
export function ShareButton({
  user,
  className = "btn btn-ghost nav-desktop",
}: {
  user: ShareUser;
  className?: string;
}) {
  const navigate = useNavigate();
  const [context, setContext] = useState<"header" | "airdrop" | null>(null);

  useEffect(() => {
    if (!user.is_star) return;
    try {
      if (window.localStorage.getItem(PENDING_AIRDROP_SHARE_KEY)) {
        window.localStorage.removeItem(PENDING_AIRDROP_SHARE_KEY);
        setContext("airdrop");
      }
    } catch {
      /* storage unavailable */
    }
  }, [user.is_star]);

  return (
    <>
      <Link
        to={user.is_star ? "/share" : "/evaluate"}
        className={className}
        // Not aria-disabled: without a grade it still answers (PRODUCT §5's message, then /evaluate).
        title={user.is_star ? undefined : "Get your grade first to share it"}
        onClick={(e) => {
          e.preventDefault();
          if (!user.is_star) {
            notify.info(NO_GRADE_MESSAGE);
            navigate("/evaluate");
            return;
          }
          setContext("header");
        }}
      >
        Share
      </Link>
      {context ? (
        <ShareModal
          userId={user.id}
          canShare={user.is_star}
          title={context === "airdrop" ? "Share your card to claim your airdrop" : "Share your performance card"}
          onClose={() => setContext(null)}
          // The airdrop's "share your card" task (idempotent on the server; errors change nothing here).
          onShared={() =>
            void fetch("/api/airdrop/share", { method: "POST", credentials: "same-origin" }).catch(() => {})
          }
        />
      ) : null}
    </>
  );
}
