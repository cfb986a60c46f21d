import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { signUp } from "./http";
import { ownDatabase, startServer, type RunningServer } from "./server";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * A server of its own with an admin made the documented way: sign up, stop the server (PGlite is
 * one process), `npm run admin -- grant <email>` (scripts/admin.ts), start again.
 */
export async function serverWithAdmin(): Promise<{
  server: RunningServer;
  admin: { email: string; cookie: string };
  cleanup: () => Promise<void>;
  cli: (...args: string[]) => Promise<string>;
}> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "grader-admin-"));
  const env = { DATA_DIR: dir, ...(await ownDatabase()) };
  // A database on disk migrates slowly on a busy machine: more time than the default.
  let server = await startServer(env, { timeoutMs: 150_000 });
  const admin = await signUp({ base: server.url });
  await server.stop();
  const cli = async (...args: string[]) =>
    (
      await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], {
        cwd: root,
        env: { ...process.env, ...env, LOG_LEVEL: "error" },
      })
    ).stdout;
  await cli("grant", admin.email);
  server = await startServer(env, { timeoutMs: 150_000 });
  return {
    server,
    admin,
    cli,
    cleanup: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
