import { formatMoney, formatNumber, formatPercent, sideLabel } from "~/lib/format-number";
import { useLocale } from "~/lib/locale-context";
import type { HoldingRow, TradeRow } from "~/server/grades/portfolio.server";
import { PagedTable, type Column } from "./PagedTable";

type Meta = { page: number; page_size: number; total: number };

/** Said once above a table whose amount columns are left out, rather than "hidden" in every cell. */
function AmountsHidden() {
  return (
    <p className="muted small" data-testid="amounts-hidden">
      This trader keeps amounts private: quantities and dollar values are hidden.
    </p>
  );
}

export function TradesTable({
  rows,
  meta,
  sortBy,
  order,
  amounts = true,
}: {
  rows: TradeRow[];
  meta: Meta;
  sortBy: string;
  order: "asc" | "desc";
  amounts?: boolean;
}) {
  const locale = useLocale();
  // Each price in its own currency; the currency gets a column of its own when the rows differ.
  const mixed = rows.some((r) => r.currency !== rows[0]?.currency);
  const columns: Column<TradeRow>[] = [
    { key: "time", label: "Date", sortable: true, render: (r) => r.time.slice(0, 10) },
    { key: "symbol", label: "Symbol", sortable: true, render: (r) => r.symbol },
    { key: "side", label: "Side", sortable: true, render: (r) => sideLabel(r.side) },
    ...(amounts
      ? [
          {
            key: "quantity",
            label: "Quantity",
            sortable: true,
            numeric: true,
            render: (r: TradeRow) => formatNumber(r.quantity ?? 0, 6, 0, locale),
          },
        ]
      : []),
    {
      key: "price",
      label: "Price",
      sortable: true,
      numeric: true,
      render: (r) => formatMoney(r.price, r.currency, locale),
    },
    ...(amounts
      ? [
          {
            key: "fee",
            label: "Fee",
            numeric: true,
            render: (r: TradeRow) => formatMoney(r.fee ?? 0, r.currency, locale),
          },
        ]
      : []),
    ...(mixed ? [{ key: "currency", label: "Currency", render: (r: TradeRow) => r.currency }] : []),
    { key: "account", label: "Account", render: (r) => r.account },
  ];
  return (
    <>
      {amounts ? null : <AmountsHidden />}
      <PagedTable
        caption="Trades"
        columns={columns}
        rows={rows}
        meta={meta}
        sortBy={sortBy}
        order={order}
        rowKey={(r) => r.id}
      />
    </>
  );
}

export function HoldingsTable({
  rows,
  meta,
  sortBy,
  order,
  amounts = true,
}: {
  rows: HoldingRow[];
  /** `currency`: the grade's base, which every amount of its positions is in. */
  meta: Meta & { currency?: string };
  sortBy: string;
  order: "asc" | "desc";
  amounts?: boolean;
}) {
  const locale = useLocale();
  const money = (v: number) => formatMoney(v, meta.currency, locale);
  const columns: Column<HoldingRow>[] = [
    { key: "symbol", label: "Symbol", sortable: true, render: (r) => r.symbol },
    { key: "weight", label: "Share", sortable: true, numeric: true, render: (r) => formatPercent(r.weight) },
    ...(amounts
      ? [
          {
            key: "quantity",
            label: "Quantity",
            numeric: true,
            render: (r: HoldingRow) => formatNumber(r.quantity ?? 0, 6, 0, locale),
          },
          {
            key: "avg_cost",
            label: "Average cost",
            numeric: true,
            render: (r: HoldingRow) => money(r.avg_cost ?? 0),
          },
        ]
      : []),
    { key: "mark", label: "Price", numeric: true, render: (r) => money(r.mark) },
    ...(amounts
      ? [
          {
            key: "value",
            label: "Value",
            sortable: true,
            numeric: true,
            render: (r: HoldingRow) => money(r.value ?? 0),
          },
          {
            key: "unrealized",
            label: "Unrealized P&L",
            sortable: true,
            numeric: true,
            render: (r: HoldingRow) => money(r.unrealized ?? 0),
          },
        ]
      : []),
  ];
  return (
    <>
      {amounts ? null : <AmountsHidden />}
      <PagedTable
        caption="Holdings"
        columns={columns}
        rows={rows}
        meta={meta}
        sortBy={sortBy}
        order={order}
        rowKey={(r) => r.symbol}
      />
    </>
  );
}
