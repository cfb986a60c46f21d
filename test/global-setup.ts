import { existsSync } from "node:fs";
import { execSync } from "node:child_process";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { dropStaleTestDatabases, startServer, type RunningServer } from "./support/server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

let server: RunningServer | undefined;

// One built server per test project, shared by its files.
export async function setup(project: TestProject) {
  const root = path.resolve(import.meta.dirname, "..");
  if (!existsSync(path.join(root, "build/index.js"))) execSync("npx remix build", { cwd: root, stdio: "inherit" });
  await dropStaleTestDatabases();
  server = await startServer();
  project.provide("baseUrl", server.url);
}

export async function teardown() {
  await server?.stop();
}
