import { Link } from "@remix-run/react";

/** Previous/next links and "Page n of m" for a ?page= list: plain links, no JavaScript needed. */
export function Pager({
  label,
  page,
  pages,
  total,
  href,
}: {
  label: string;
  page: number;
  pages: number;
  total?: number;
  href: (page: number) => string;
}) {
  return (
    <nav className="pager" aria-label={label}>
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev">
          ← Previous
        </Link>
      ) : (
        <span />
      )}
      <span className="muted small">
        {total === undefined ? `Page ${page} of ${pages}` : `Page ${page} of ${pages} · ${total} in all`}
      </span>
      {page < pages ? (
        <Link to={href(page + 1)} rel="next">
          Next →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
