import { timeAgo } from "~/lib/time-ago";
import { TraderLink } from "./TraderLink";
import { PagedTable } from "./PagedTable";

type Row = {
  id: number;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  name: string | null;
  avatar: string | null;
  followed_at: string;
};

/** /profile/followers and /profile/following: traders with when the follow began, paged and sortable. */
export function FollowTable({
  caption,
  rows,
  meta,
  sortBy,
  order,
  now,
}: {
  caption: string;
  rows: Row[];
  meta: { page: number; page_size: number; total: number };
  sortBy: string;
  order: "asc" | "desc";
  now: number;
}) {
  return (
    <PagedTable
      caption={caption}
      rows={rows}
      meta={meta}
      sortBy={sortBy}
      order={order}
      rowKey={(r) => String(r.id)}
      columns={[
        {
          key: "username",
          label: "Trader",
          sortable: true,
          render: (r) => <TraderLink trader={r} />,
        },
        { key: "followed_at", label: "Since", sortable: true, render: (r) => timeAgo(r.followed_at, now) },
      ]}
    />
  );
}
