import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";
import { getEnv } from "./env.server";

// Structured logs with pino: one JSON object per line ({"level","time","msg",...}), info and debug
// on stdout, errors on stderr. Every line written while a request is handled carries its
// `requestId`, from an AsyncLocalStorage that server.ts enters for each request.
type Level = "error" | "info" | "debug";
type Context = { requestId: string };

const shared: { storage: AsyncLocalStorage<Context>; logger?: pino.Logger } = {
  storage: new AsyncLocalStorage<Context>(),
};

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
      mixin: () => {
        const id = shared.storage.getStore()?.requestId;
        return id ? { requestId: id } : {};
      },
    },
    streams,
  );
  return shared.logger;
}

/** Runs `fn` with `requestId` on every log line it (and everything it awaits) writes. */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return shared.storage.run({ requestId }, fn);
}

export function log(level: Level, msg: string, fields: Record<string, unknown> = {}) {
  logger()[level](fields, msg);
}
