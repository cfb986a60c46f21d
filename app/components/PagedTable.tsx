import { Link, useLocation } from "@remix-run/react";
import { pageCount } from "~/lib/paging";
import { Pager } from "./Pager";

export type Column<R> = {
  key: string;
  label: string;
  sortable?: boolean;
  render: (row: R) => React.ReactNode;
  numeric?: boolean;
};

/** A table with sort links in its headers and previous/next links: plain links, no JavaScript needed. */
export function PagedTable<R>({
  caption,
  columns,
  rows,
  meta,
  sortBy,
  order,
  rowKey,
}: {
  caption: string;
  columns: Column<R>[];
  rows: R[];
  meta: { page: number; page_size: number; total: number };
  sortBy: string;
  order: "asc" | "desc";
  rowKey: (row: R, i: number) => string;
}) {
  const location = useLocation();
  const href = (changes: Record<string, string | number>) => {
    const params = new URLSearchParams(location.search);
    for (const [k, v] of Object.entries(changes)) params.set(k, String(v));
    return `${location.pathname}?${params}`;
  };
  const pages = pageCount(meta.total, meta.page_size);
  return (
    <div className="paged-table">
      <table className="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => {
              const active = c.key === sortBy;
              const next = active && order === "desc" ? "asc" : "desc";
              return (
                <th
                  key={c.key}
                  scope="col"
                  aria-sort={active ? (order === "asc" ? "ascending" : "descending") : undefined}
                  className={c.numeric ? "num" : undefined}
                >
                  {c.sortable ? (
                    <Link to={href({ sort_by: c.key, order: next, page: 1 })} preventScrollReset>
                      {c.label} {active ? (order === "asc" ? "▲" : "▼") : null}
                    </Link>
                  ) : (
                    c.label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={rowKey(r, i)}>
              {columns.map((c) => (
                <td key={c.key} className={c.numeric ? "num" : undefined}>
                  {c.render(r)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <Pager
        label={`${caption} pages`}
        page={meta.page}
        pages={pages}
        total={meta.total}
        href={(page) => href({ page })}
      />
    </div>
  );
}
