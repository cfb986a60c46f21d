import type { LoaderFunctionArgs } from "@remix-run/node";
import { gradeLogEntry } from "~/server/grades/grade-log.server";
import { normaliseCode } from "~/server/grades/grade-record.server";

// The signed record of one grade, as the log holds it: check it with `npm run verify-grade`.
export async function loader({ params }: LoaderFunctionArgs) {
  const code = normaliseCode(params.code);
  const entry = code ? await gradeLogEntry(code) : null;
  if (!entry)
    return new Response("No grade has this code", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  return new Response(JSON.stringify(entry, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${code}.json"`,
      "Cache-Control": "public, max-age=300",
      "Access-Control-Allow-Origin": "*",
    },
  });
}
