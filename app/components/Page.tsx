import type { ReactNode } from "react";

export function Page({
  title,
  lead,
  children,
  narrow,
  actions,
}: {
  title: string;
  lead?: ReactNode;
  children?: ReactNode;
  narrow?: boolean;
  actions?: ReactNode;
}) {
  return (
    <div className={`page${narrow ? " narrow" : ""}`}>
      <div className="page-head">
        <div>
          <h1>{title}</h1>
          {lead ? <p className="lead">{lead}</p> : null}
        </div>
        {actions ? <div className="page-actions">{actions}</div> : null}
      </div>
      {children}
    </div>
  );
}

/** An honest empty state: says what will appear here and what to do to get there. */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <section className="empty-state">
      <h2>{title}</h2>
      {children ? <div className="muted">{children}</div> : null}
      {action ? <div className="empty-action">{action}</div> : null}
    </section>
  );
}
