import { Link } from "@remix-run/react";
import { useEffect, useRef, useSyncExternalStore } from "react";
import { createPortal } from "react-dom";
import toast, { Toaster } from "react-hot-toast";

// PRODUCT §9 durations: default 5000 ms; error and warning 5 s; success 2 s; info and tips stay until
// closed. Bottom centre, no progress bar.
export const TOAST_DURATION = { default: 5000, success: 2000, error: 5000, warning: 5000, info: Infinity } as const;

// A modal <dialog> sits in the browser's top layer and makes the rest of the page inert, so toasts
// shown while one is open would sit dimmed under its backdrop, their × unclickable. While a modal
// is open the toaster is portalled into it (the newest one); react-hot-toast keeps its toasts in a
// global store, so moving the toaster loses none.
const hosts: HTMLElement[] = [];
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const currentHost = () => hosts[hosts.length - 1] ?? null;

function holdToasts(host: HTMLElement): () => void {
  hosts.push(host);
  listeners.forEach((l) => l());
  return () => {
    hosts.splice(hosts.indexOf(host), 1);
    listeners.forEach((l) => l());
  };
}

/** A native <dialog> opened modally on mount (focus trapped, Escape cancels) that shows toasts above itself while open. */
export function useModalDialog() {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    return holdToasts(dialog);
  }, []);
  return ref;
}

export function AppToaster() {
  const host = useSyncExternalStore(subscribe, currentHost, () => null);
  const toaster = (
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
  return host ? createPortal(toaster, host) : toaster;
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

function DismissableLink({ id, message, to }: { id: string; message: string; to: string }) {
  return (
    <span className="toast-dismissable">
      <Link to={to} onClick={() => toast.dismiss(id)}>
        {message}
      </Link>
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
  info: (message: string) =>
    toast((t) => <Dismissable id={t.id} message={message} />, { duration: TOAST_DURATION.info, icon: "ℹ️" }),
  /** News that leads somewhere (a live trade alert): the default duration, a link, a close button; one per `key`. */
  link: (message: string, to: string, key: string) =>
    toast((t) => <DismissableLink id={t.id} message={message} to={to} />, {
      id: key,
      duration: TOAST_DURATION.default,
      icon: "📈",
    }),
  dismiss: (id?: string) => toast.dismiss(id),
};
