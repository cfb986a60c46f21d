import { NavLink } from "@remix-run/react";

/** A layout's tabs: links to its child routes, the current one marked (NavLink's `active`). */
export function Tabs({ label, tabs }: { label: string; tabs: readonly (readonly [to: string, text: string])[] }) {
  return (
    <nav className="tabs" aria-label={label}>
      {tabs.map(([to, text]) => (
        <NavLink key={to} to={to}>
          {text}
        </NavLink>
      ))}
    </nav>
  );
}
