import pino from "pino";
import { getEnv } from "./env.server";
import { currentRequestId } from "./request-context.server";

// Structured logs with pino: one JSON object per line ({"level","time","msg",...}), info and debug
// on stdout, errors on stderr. Every line written while a request is handled carries its
// `requestId`, from the request context server.ts enters for each request.
type Level = "error" | "info" | "debug";

const shared: { logger?: pino.Logger } = {};
const SECRET_FIELDS = ["api_key", "apiKey", "secret", "passphrase", "password", "access_token", "accessToken", "token"];

function logger(): pino.Logger {
  if (shared.logger) return shared.logger;
  const streams = pino.multistream(
    [
      { level: "debug", stream: process.stdout },
      { level: "error", stream: process.stderr },
    ],
    { dedupe: true },
  );
  shared.logger = pino(
    {
      level: getEnv().LOG_LEVEL,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // An exchange key is never written out, whichever field a caller puts it in.
      redact: { paths: SECRET_FIELDS.flatMap((f) => [f, `*.${f}`]), censor: "[redacted]" },
      mixin: () => {
        const id = currentRequestId();
        return id ? { requestId: id } : {};
      },
    },
    streams,
  );
  return shared.logger;
}

export function log(level: Level, msg: string, fields: Record<string, unknown> = {}) {
  logger()[level](fields, msg);
}
