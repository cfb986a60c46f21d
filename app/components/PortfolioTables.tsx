import { formatNumber, formatPercent, formatUsd } from "~/lib/format-number";
import type { HoldingRow, TradeRow } from "~/server/portfolio.server";
import { PagedTable, type Column } from "./PagedTable";

type Meta = { page: number; page_size: number; total: number };
const hidden = <span className="muted">hidden</span>;

export function TradesTable({ rows, meta, sortBy, order, amounts = true }: { rows: TradeRow[]; meta: Meta; sortBy: string; order: "asc" | "desc"; amounts?: boolean }) {
  const columns: Column<TradeRow>[] = [
    { key: "time", label: "Date", sortable: true, render: (r) => r.time.slice(0, 10) },
    { key: "symbol", label: "Symbol", sortable: true, render: (r) => r.symbol },
    { key: "side", label: "Side", sortable: true, render: (r) => (r.side === "buy" ? "Buy" : "Sell") },
    { key: "quantity", label: "Quantity", sortable: amounts, numeric: true, render: (r) => (r.quantity === null ? hidden : formatNumber(r.quantity, 6)) },
    { key: "price", label: "Price", sortable: true, numeric: true, render: (r) => formatUsd(r.price) },
    { key: "fee", label: "Fee", numeric: true, render: (r) => (r.fee === null ? hidden : formatUsd(r.fee)) },
    { key: "account", label: "Account", render: (r) => r.account },
  ];
  return <PagedTable caption="Trades" columns={columns} rows={rows} meta={meta} sortBy={sortBy} order={order} rowKey={(r) => r.id} />;
}

export function HoldingsTable({ rows, meta, sortBy, order }: { rows: HoldingRow[]; meta: Meta; sortBy: string; order: "asc" | "desc" }) {
  const columns: Column<HoldingRow>[] = [
    { key: "symbol", label: "Symbol", sortable: true, render: (r) => r.symbol },
    { key: "weight", label: "Share", sortable: true, numeric: true, render: (r) => formatPercent(r.weight) },
    { key: "quantity", label: "Quantity", numeric: true, render: (r) => (r.quantity === null ? hidden : formatNumber(r.quantity, 6)) },
    { key: "avg_cost", label: "Average cost", numeric: true, render: (r) => (r.avg_cost === null ? hidden : formatUsd(r.avg_cost)) },
    { key: "mark", label: "Price", numeric: true, render: (r) => formatUsd(r.mark) },
    { key: "value", label: "Value", sortable: true, numeric: true, render: (r) => (r.value === null ? hidden : formatUsd(r.value)) },
    { key: "unrealized", label: "Unrealized P&L", sortable: true, numeric: true, render: (r) => (r.unrealized === null ? hidden : formatUsd(r.unrealized)) },
  ];
  return <PagedTable caption="Holdings" columns={columns} rows={rows} meta={meta} sortBy={sortBy} order={order} rowKey={(r) => r.symbol} />;
}
