import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiData, apiError, readQuery, requireApiUser } from "~/server/http/api.server";
import { LedgerQuery } from "~/server/http/api-schemas.server";
import { evaluationLedger } from "~/server/grades/ledger.server";

// The exact engine-format ledger an evaluation of the caller graded (docs/API.md): the current
// grade's, or ?evaluation_id= for an older one. `npm run grade` on it reproduces the grade.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const { evaluation_id: evaluationId } = readQuery(request, LedgerQuery);
  const found = await evaluationLedger(user.id, evaluationId);
  if (!found) {
    throw apiError(
      404,
      evaluationId === undefined
        ? "You have no grade with a stored ledger yet."
        : "You have no grade with that id and a stored ledger.",
    );
  }
  return apiData(found.ledger, {
    meta: {
      evaluationId: found.evaluationId,
      engineVersion: found.engineVersion,
      ledgerDigest: found.ledgerDigest,
      dataQuality: found.dataQuality,
    },
  });
}
