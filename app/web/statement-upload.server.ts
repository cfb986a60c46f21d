import {
  json,
  redirect,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
  type ActionFunctionArgs,
} from "@remix-run/node";
import { apiData, apiError, requireApiUser, requireMethod } from "~/server/http/api.server";
import { requireUser } from "~/server/http/session.server";
import {
  uploadStatement,
  type StatementRefusal,
  type StatementUpload,
} from "~/server/linking/providers/statement.server";
import { MAX_STATEMENT_BYTES } from "~/sources/statement/formats";

type FileRead =
  | { ok: true; bytes: Uint8Array; fileName: string }
  | { ok: false; status: 400 | 413; message: string; errors: string[] };

/**
 * The `file` field of a multipart upload, read into memory up to MAX_STATEMENT_BYTES (server.ts
 * refused a larger declared body before this; this bound holds for any body that lies about it).
 */
async function readFileField(request: Request): Promise<FileRead> {
  if (!(request.headers.get("content-type") ?? "").startsWith("multipart/form-data"))
    return {
      ok: false,
      status: 400,
      message: "Send the file as multipart/form-data, in the field “file”.",
      errors: [],
    };
  let form: FormData;
  try {
    form = await unstable_parseMultipartFormData(
      request,
      unstable_createMemoryUploadHandler({ maxPartSize: MAX_STATEMENT_BYTES }),
    );
  } catch (error) {
    if (error instanceof Error && /exceeded upload limit|MaxPartSize/i.test(`${error.name} ${error.message}`))
      return {
        ok: false,
        status: 413,
        message: `The file is larger than ${MAX_STATEMENT_BYTES / 1024 / 1024} MB; split it or export fewer years.`,
        errors: [],
      };
    return {
      ok: false,
      status: 400,
      message: "The upload could not be read. Choose the file and send it again.",
      errors: [],
    };
  }
  const file = form.get("file");
  if (!file || typeof file === "string" || file.size === 0)
    return { ok: false, status: 400, message: "Choose a statement file to upload.", errors: [] };
  return { ok: true, bytes: new Uint8Array(await file.arrayBuffer()), fileName: file.name };
}

async function upload(request: Request, userId: number): Promise<StatementUpload | StatementRefusal | FileRead> {
  const file = await readFileField(request);
  if (!file.ok) return file;
  return uploadStatement({ userId, bytes: file.bytes, fileName: file.fileName });
}

export type StatementPageReply = { ok: false; formError: string; errors: string[] };

/** The page's post (/link/statement): to the account page when stored, else the refusal in words. */
export async function statementPageAction({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const result = await upload(request, user.id);
  if (!result.ok || !("linkedAccountId" in result)) {
    const refused = result as StatementRefusal | Extract<FileRead, { ok: false }>;
    return json<StatementPageReply>(
      { ok: false, formError: refused.message, errors: "errors" in refused ? refused.errors : [] },
      {
        status: refused.status,
        ...(refused.status === 429 && "retryAfter" in refused
          ? { headers: { "Retry-After": String(refused.retryAfter) } }
          : {}),
      },
    );
  }
  return redirect(result.unchanged ? "/profile/account?statement=unchanged#imports" : "/profile/account#imports");
}

/** POST /api/statements (multipart, field `file`) → the statement account and its import (docs/API.md). */
export async function statementApiAction({ request }: ActionFunctionArgs) {
  requireMethod(request, "POST");
  const user = await requireApiUser(request);
  const result = await upload(request, user.id);
  if (!result.ok || !("linkedAccountId" in result)) {
    const refused = result as StatementRefusal | Extract<FileRead, { ok: false }>;
    if (refused.status === 429 && "retryAfter" in refused)
      return apiError(429, refused.message, undefined, { "Retry-After": String(refused.retryAfter) });
    const errors = "errors" in refused ? refused.errors : [];
    return json(
      { error: { message: refused.message, ...(errors.length ? { lines: errors } : {}) } },
      { status: refused.status },
    );
  }
  return apiData(
    {
      linked_account_id: result.linkedAccountId,
      kind: "statement" as const,
      format: result.format,
      rows: result.lines,
      trades: result.trades,
      cash_flows: result.cashFlows,
      events: result.events,
      created: result.created,
      unchanged: result.unchanged,
      self_reported: true as const,
      graded: result.graded,
      status: result.unchanged ? ("unchanged" as const) : ("importing" as const),
      import_id: result.importId,
    },
    { status: result.created ? 201 : 200 },
  );
}
