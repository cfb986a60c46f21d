import path from "node:path";
import { defineConfig } from "vitest/config";

// The cluster check (`npm run test:cluster`, after `npm test` in .ci/run): real PgBouncer and nginx
// in front of two web replicas and a worker on one PostgreSQL. Apart from `npm test`'s projects:
// it needs DATABASE_URL and Debian's pgbouncer and nginx, and it loads both cores on its own.
export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    env: { SIM_DELAY_FACTOR: "0" },
    include: ["test/cluster/**/*.test.ts"],
    testTimeout: 240_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
});
