import { existsSync } from "node:fs";
import { execSync } from "node:child_process";
import path from "node:path";
import type { TestProject } from "vitest/node";
import {
  dropOwnDatabase,
  dropStaleTestDatabases,
  ownDatabase,
  startServer,
  type RunningServer,
} from "./support/server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    /** The project server's own database ("" on PGlite); test/support/project-database.ts uses it. */
    databaseUrl: string;
  }
}

let server: RunningServer | undefined;
let database: string | undefined;

// One built server per test project, shared by its files. Vitest starts every project's server
// before the first test, so each gets a database of its own: on a shared one the browser tests'
// server took the integration tests' jobs, with other simulators' state.
export async function setup(project: TestProject) {
  const root = path.resolve(import.meta.dirname, "..");
  if (!existsSync(path.join(root, "build/index.js"))) execSync("npx remix build", { cwd: root, stdio: "inherit" });
  await dropStaleTestDatabases();
  const own = await ownDatabase();
  database = own.DATABASE_URL;
  server = await startServer(own);
  project.provide("baseUrl", server.url);
  project.provide("databaseUrl", database ?? "");
}

export async function teardown() {
  await server?.stop();
  if (database) await dropOwnDatabase(database);
}
