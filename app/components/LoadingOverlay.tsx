export function LoadingOverlay({ show, label = "LOADING" }: { show: boolean; label?: string }) {
  if (!show) return null;
  return (
    <div className="loading-overlay" role="status" aria-live="polite">
      <div className="spinner" aria-hidden="true" />
      <p>{label}</p>
    </div>
  );
}
