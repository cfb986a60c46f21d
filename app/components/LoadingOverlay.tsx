import { createPortal } from "react-dom";

/**
 * A full-page overlay that blocks the page while it shows. It is portalled to <body>: rendered in
 * place (e.g. inside the header, whose backdrop-filter makes it the containing block of fixed
 * children) it would be clipped to its parent and leave the page clickable.
 */
export function LoadingOverlay({ show, label = "LOADING" }: { show: boolean; label?: string }) {
  // Only ever shown after a client-side submit, so there is always a document to portal into.
  if (!show || typeof document === "undefined") return null;
  return createPortal(
    <div className="loading-overlay" role="status" aria-live="polite">
      <div className="spinner" aria-hidden="true" />
      <p>{label}</p>
    </div>,
    document.body,
  );
}
