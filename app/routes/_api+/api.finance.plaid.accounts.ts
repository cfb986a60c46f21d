import type { LoaderFunctionArgs } from "@remix-run/node";
import { listLinkedAccountsWithCounts } from "~/server/linking/imports.server";
import { apiData, requireApiUser } from "~/server/http/api.server";

// GET /api/finance/plaid/accounts → the caller's linked accounts (all kinds) with ledger sizes.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const rows = await listLinkedAccountsWithCounts(user.id);
  return apiData(
    rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      label: r.label,
      institution_name: r.institution_name,
      status: r.status,
      last_imported_at: r.last_imported_at,
      last_error: r.last_error,
      trades: r.trades,
      cash_flows: r.cash_flows,
      withdrawals: r.withdrawals,
    })),
  );
}
