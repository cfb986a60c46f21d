import { spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

/** Provider credentials cleared, so a run starts from "nothing configured" whatever the shell has. */
export const NO_PROVIDERS: Record<string, string> = Object.fromEntries(
  [
    "GOOGLE_CLIENT_ID",
    "GOOGLE_CLIENT_SECRET",
    "APPLE_CLIENT_ID",
    "APPLE_TEAM_ID",
    "APPLE_KEY_ID",
    "APPLE_PRIVATE_KEY",
    "PLAID_CLIENT_ID",
    "PLAID_SECRET",
    "EVM_EXPLORER_URL",
    "SOLANA_RPC_URL",
    "BINANCE_API_URL",
    "KRAKEN_API_URL",
    "COINBASE_API_URL",
    "OKX_API_URL",
    "BYBIT_API_URL",
    "STRIPE_SECRET_KEY",
    "STRIPE_WEBHOOK_SECRET",
    "SMTP_URL",
    "DEMO",
    "DEMO_PROVIDERS",
    "ENCRYPTION_KEY",
  ].map((k) => [k, ""]),
);

/** Runs server.ts as a deployment would (no test defaults) until it exits; for start-up refusals. */
export function runServerUntilExit(
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: "memory://",
      LOG_LEVEL: "info",
      ...NO_PROVIDERS,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not exit within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
