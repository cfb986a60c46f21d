import path from "node:path";
import { defineConfig } from "vitest/config";

// Four projects, one `vitest run`: pure unit tests live beside their modules; integration and
// browser tests talk HTTP to one built server started by test/global-setup.ts; the fault tests
// start, kill and restart servers of their own.
export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    // Simulated provider delays off (test/mocks/sim-delay.ts); the spawned test server inherits it.
    // One test-only encryption key for the built server and the in-process tests: on one
    // PostgreSQL they read each other's sealed secrets (Plaid tokens, the grade signing key).
    env: { SIM_DELAY_FACTOR: "0", ENCRYPTION_KEY: "4d1c0f6e2b7a9c3e5f8d0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d" },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.ts", "scripts/**/*.test.ts", "test/unit/**/*.test.ts"],
          environment: "node",
          // Property tests run hundreds of cases: generous under a loaded CI machine.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          globalSetup: ["test/global-setup.ts"],
          setupFiles: ["test/support/project-database.ts"],
          testTimeout: 30_000,
          // A hook that starts a server is bounded by startServer's own limit (180 s, which prints
          // the server's log); on a busy two-core machine a start took over 60 s.
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          // After the other two, alone: on two cores a browser and its server beside the integration
          // tests' server and the property tests ran the longest browser tests past their timeout.
          sequence: { groupOrder: 1 },
          globalSetup: ["test/global-setup.ts"],
          setupFiles: ["test/support/project-database.ts"],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: "fault",
          include: ["test/fault/**/*.test.ts"],
          // Last and alone: each test kills servers and waits for jobs to be taken back, which a
          // loaded machine would stretch; beside the browser tests neither would keep its timing.
          sequence: { groupOrder: 2 },
          // Each scenario starts two or three servers (a start took over 60 s on a busy machine)
          // and waits for expired jobs: its own budget, checked per test.
          testTimeout: 240_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
