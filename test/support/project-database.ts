import { inject } from "vitest";

// Each test file of a project reads and writes its server's database (test/global-setup.ts), so
// what a test checks in process is what the server wrote. On PGlite there is none to share.
const url = inject("databaseUrl");
if (url) process.env.DATABASE_URL = url;
