import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { ownDatabase, startServer, type RunningServer } from "../support/server";
import type { Storage } from "./invariants";

// Servers of a fault test: started on storage that outlives them, killed or stopped on purpose,
// and never left running after the file.

const started: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => (isRunning(s) ? s.stop() : null)));
});

export function isRunning(server: RunningServer): boolean {
  return server.process.exitCode === null && server.process.signalCode === null;
}

/**
 * Storage of the test's own, kept across restarts: a PGlite folder (a `kill -9` leaves it as a
 * crash would), or a new database beside DATABASE_URL's.
 */
export async function storage(): Promise<Storage> {
  if (!process.env.DATABASE_URL) return { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "grader-fault-")) };
  return ownDatabase();
}

/** Settings every server of one scenario shares: its storage and one key for its sealed secrets. */
export async function scenario(env: Record<string, string> = {}): Promise<Record<string, string>> {
  return { ENCRYPTION_KEY: crypto.randomBytes(32).toString("hex"), LOG_REQUESTS: "0", ...env, ...(await storage()) };
}

export async function start(env: Record<string, string>): Promise<RunningServer> {
  const server = await startServer(env);
  started.push(server);
  return server;
}

/** kill -9, and wait until the process is gone (its PGlite lock names a dead pid from then on). */
export async function kill9(server: RunningServer): Promise<void> {
  if (!isRunning(server)) throw new Error(`the server had already exited:\n${server.logs.slice(-30).join("\n")}`);
  const gone = new Promise<void>((resolve) => server.process.once("exit", () => resolve()));
  server.process.kill("SIGKILL");
  await gone;
}

/** Polls `probe` until it returns something other than undefined, or fails with `what` after the deadline. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Log entries of a server (JSON lines) with this message. */
export function logged(server: RunningServer, msg: string): Record<string, unknown>[] {
  return server.logs.flatMap((line) => {
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      return entry.msg === msg ? [entry] : [];
    } catch {
      return [];
    }
  });
}
