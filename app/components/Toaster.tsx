import toast, { Toaster } from "react-hot-toast";

// SPEC §9 durations: default 5000 ms; error and warning 5 s; success 2 s; info and tips stay until
// closed. Bottom centre, no progress bar.
export const TOAST_DURATION = { default: 5000, success: 2000, error: 5000, warning: 5000, info: Infinity } as const;

export function AppToaster() {
  return (
    <Toaster
      position="bottom-center"
      toastOptions={{
        duration: TOAST_DURATION.default,
        success: { duration: TOAST_DURATION.success },
        error: { duration: TOAST_DURATION.error },
        className: "toast",
      }}
    />
  );
}

function Dismissable({ id, message }: { id: string; message: string }) {
  return (
    <span className="toast-dismissable">
      <span>{message}</span>
      <button type="button" className="toast-close" aria-label="Close" onClick={() => toast.dismiss(id)}>
        ×
      </button>
    </span>
  );
}

export const notify = {
  success: (message: string) => toast.success(message, { duration: TOAST_DURATION.success }),
  error: (message: string) => toast.error(message, { duration: TOAST_DURATION.error }),
  warning: (message: string) => toast(message, { duration: TOAST_DURATION.warning, icon: "⚠️" }),
  loading: (message: string) => toast.loading(message),
  info: (message: string) => toast((t) => <Dismissable id={t.id} message={message} />, { duration: TOAST_DURATION.info, icon: "ℹ️" }),
  dismiss: (id?: string) => toast.dismiss(id),
};
