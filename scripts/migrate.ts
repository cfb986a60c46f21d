import { closeDb, migrateToLatest } from "../app/server/platform/db.server";

const applied = await migrateToLatest();
console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Database is up to date.");
await closeDb();
