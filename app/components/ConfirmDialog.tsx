import { createContext, useCallback, useContext, useState } from "react";
import { useModalDialog } from "./Toaster";

export type ConfirmOptions = {
  title: string;
  message: React.ReactNode;
  okLabel?: string;
  cancelLabel?: string;
  hideOk?: boolean;
  hideCancel?: boolean;
};

type Pending = ConfirmOptions & { resolve: (ok: boolean) => void };
const ConfirmContext = createContext<(o: ConfirmOptions) => Promise<boolean>>(async () => false);

/** `const confirm = useConfirm(); if (await confirm({...})) ...` — true on OK, false on Cancel. */
export const useConfirm = () => useContext(ConfirmContext);

export function ConfirmProvider({ children }: { children: React.ReactNode }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const confirm = useCallback(
    (options: ConfirmOptions) => new Promise<boolean>((resolve) => setPending({ ...options, resolve })),
    [],
  );
  const close = (ok: boolean) => {
    pending?.resolve(ok);
    setPending(null);
  };
  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      {pending ? <ConfirmDialog {...pending} onClose={close} /> : null}
    </ConfirmContext.Provider>
  );
}

/**
 * A native <dialog>: focus is trapped and Escape cancels. Where JavaScript is off, flows that
 * need a confirmation render it as a page step instead (see the routes using ConfirmStep).
 */
export function ConfirmDialog({
  title,
  message,
  okLabel = "OK",
  cancelLabel = "Cancel",
  hideOk,
  hideCancel,
  onClose,
}: ConfirmOptions & { onClose: (ok: boolean) => void }) {
  const ref = useModalDialog();
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby="confirm-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose(false);
      }}
    >
      <h2 id="confirm-title">{title}</h2>
      <div className="dialog-body">{message}</div>
      <div className="dialog-actions">
        {hideCancel ? null : (
          <button type="button" className="btn btn-ghost" onClick={() => onClose(false)}>
            {cancelLabel}
          </button>
        )}
        {hideOk ? null : (
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => onClose(true)}
            // eslint-disable-next-line jsx-a11y/no-autofocus -- the dialog pattern: focus moves onto its primary action
            autoFocus
          >
            {okLabel}
          </button>
        )}
      </div>
    </dialog>
  );
}
