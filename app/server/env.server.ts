import { z } from "zod";

// One schema for the whole environment, parsed once at start-up. A bad value stops the server
// with a message naming the variable (see docs/OPERATIONS.md for every variable).
const bool = z
  .enum(["0", "1", "true", "false", ""])
  .transform((v) => v === "1" || v === "true");

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .url()
    .refine((u) => /^postgres(ql)?:/.test(u), "must be a postgres:// URL")
    .optional(),
  PUBLIC_URL: z.string().url().default("http://localhost:3000"),
  SUPPORT_EMAIL: z.string().email().default("support@grader.example"),
  LOG_LEVEL: z.enum(["silent", "error", "info", "debug"]).default("info"),
  // One JSON line per request (at info level); benchmarks turn it off.
  LOG_REQUESTS: bool.default("1"),
  SESSION_IDLE_MINUTES: z.coerce.number().int().positive().default(60 * 24 * 7),
  SESSION_MAX_DAYS: z.coerce.number().int().positive().default(30),
  RATE_LIMIT_FACTOR: z.coerce.number().positive().default(1),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  // Express "trust proxy" setting when behind a load balancer, e.g. "1" or "loopback".
  TRUST_PROXY: z.string().default(""),
  PAGE_CACHE: bool.default("1"),
  // Extra origins allowed to POST (comma separated), besides PUBLIC_URL and the request's own host.
  TRUSTED_ORIGINS: z.string().default(""),
});

export type Env = z.infer<typeof EnvSchema>;

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

const key = "__grader_env";
export function getEnv(): Env {
  const g = globalThis as unknown as Record<string, Env | undefined>;
  return (g[key] ??= parseEnv());
}

// The subset the browser may see (window.ENV).
export function getPublicEnv() {
  const env = getEnv();
  return { PUBLIC_URL: env.PUBLIC_URL, SUPPORT_EMAIL: env.SUPPORT_EMAIL };
}
export type PublicEnv = ReturnType<typeof getPublicEnv>;
