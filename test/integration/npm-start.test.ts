import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NO_PROVIDERS } from "../support/spawn";

// `npm start` is how the README runs the product: it must run in demo mode (DEMO=1 in
// package.json, no credentials) and stop cleanly on SIGTERM, leaving no server behind.

const root = path.resolve(import.meta.dirname, "../..");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("npm start", () => {
  it("starts in demo mode without credentials and forwards SIGTERM: the server exits, no orphan", async () => {
    // As on a fresh machine: no credentials, no DEMO, no NODE_ENV (the script sets both).
    const env: Record<string, string | undefined> = {
      ...process.env,
      ...NO_PROVIDERS,
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: "memory://",
      LOG_LEVEL: "info",
    };
    delete env.NODE_ENV;
    // As on a fresh machine: embedded PGlite, whatever database the suite runs on.
    delete env.DATABASE_URL;
    const npm = spawn("npm", ["start", "--silent"], {
      cwd: root,
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    npm.stderr!.on("data", (c: Buffer) => (output += c.toString()));
    const listening = await new Promise<{ pid: number; port: number }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start did not listen:\n${output}`)), 90_000);
      npm.stdout!.on("data", (c: Buffer) => {
        output += c.toString();
        for (const line of output.split("\n")) {
          if (!line.includes('"msg":"listening"')) continue;
          clearTimeout(timer);
          resolve(JSON.parse(line));
        }
      });
      npm.on("exit", (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
    });
    expect(output).toContain("demo mode: provider simulators running");
    // An empty database in demo mode opens on the demo community.
    expect(output).toContain("demo community seeded");
    expect(listening.pid).not.toBe(npm.pid);
    expect((await fetch(`http://127.0.0.1:${listening.port}/healthz`)).status).toBe(200);
    const exited = new Promise<number | null>((r) => npm.on("exit", (code) => r(code)));
    npm.kill("SIGTERM");
    await exited;
    // The server itself got the signal and shut down (its "stopped" line), not orphaned.
    for (let i = 0; i < 50 && alive(listening.pid); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive(listening.pid)).toBe(false);
    expect(output).toContain('"msg":"stopped"');
  }, 120_000);
});
