import { AVATAR_MAX_BYTES } from "../accounts/avatar.server";
import type { Refusal } from "~/lib/refusal";
import { MAX_STATEMENT_BYTES } from "~/sources/statement/formats";

/**
 * How large a request body each route accepts, checked from Content-Length before anything reads
 * the body (server.ts answers 413, or 411 for a body without a declared length): one large body
 * must never be parsed, let alone hold up every other request while it is. Browsers and fetch()
 * always declare the length of a form or JSON body. Documented in docs/OPERATIONS.md.
 */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

export const BODY_LIMITS: { path: RegExp; bytes: number; what: string }[] = [
  // The avatar form: the image (AVATAR_MAX_BYTES) and the multipart framing around it.
  { path: /^\/user\/settings\/?$/, bytes: AVATAR_MAX_BYTES + 64 * 1024, what: "an avatar upload" },
  // A statement file (MAX_STATEMENT_BYTES) and the multipart framing around it: a larger upload is
  // refused from its declared length, never buffered.
  {
    path: /^\/(link\/statement|api\/statements)\/?$/,
    bytes: MAX_STATEMENT_BYTES + 64 * 1024,
    what: "a statement file",
  },
  // Provider webhooks carry whole event objects.
  { path: /^\/api\/(stripe|finance\/plaid)\/webhook\/?$/, bytes: 1024 * 1024, what: "a webhook" },
];

export function bodyLimitFor(path: string): number {
  return BODY_LIMITS.find((l) => l.path.test(path))?.bytes ?? DEFAULT_BODY_LIMIT;
}

export type BodyCheck = { ok: true } | Refusal<411 | 413>;

/** The verdict on a request's declared body, from its method, path and headers only. */
export function checkBodySize(req: {
  method: string;
  path: string;
  contentLength: string | undefined;
  transferEncoding: string | undefined;
}): BodyCheck {
  if (req.method === "GET" || req.method === "HEAD") return { ok: true };
  const limit = bodyLimitFor(req.path);
  if (req.contentLength === undefined) {
    if (!req.transferEncoding) return { ok: true };
    return { ok: false, status: 411, message: "Send the request body with a Content-Length header." };
  }
  const length = Number(req.contentLength);
  if (!/^\d+$/.test(req.contentLength))
    return { ok: false, status: 411, message: "The Content-Length header is not a number." };
  if (length > limit)
    return {
      ok: false,
      status: 413,
      message: `The request body is too large: at most ${Math.floor(limit / 1024)} KB here.`,
    };
  return { ok: true };
}
