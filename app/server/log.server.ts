import { getEnv } from "./env.server";

// Structured logs: one JSON object per line on stdout, so any log shipper can parse them.
type Level = "error" | "info" | "debug";
const order: Record<string, number> = { silent: 0, error: 1, info: 2, debug: 3 };

export function log(level: Level, msg: string, fields: Record<string, unknown> = {}) {
  if (order[level] > order[getEnv().LOG_LEVEL]) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
  if (level === "error") process.stderr.write(line + "\n");
  else process.stdout.write(line + "\n");
}
