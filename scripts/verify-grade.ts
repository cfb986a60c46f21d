import fs from "node:fs";
import { checkEntry, type KeySet, type LogEntry } from "../app/server/grades/grade-verify.server";

// `npm run verify-grade -- record.json [--keys keys.json]`: checks one signed grade record (as
// downloaded from /verify/{code}/record.json). With --keys it runs offline; without, it reads the
// keys the record's issuer publishes at /.well-known/grader-keys.json. Exit 0 valid, 1 invalid.
const USAGE = "Usage: npm run verify-grade -- record.json [--keys keys.json]";

async function main(argv: string[]): Promise<number> {
  const keysAt = argv.indexOf("--keys");
  const keysFile = keysAt >= 0 ? argv[keysAt + 1] : undefined;
  const file = argv.find((a, i) => !a.startsWith("--") && (keysAt < 0 || i !== keysAt + 1));
  if (!file || (keysAt >= 0 && !keysFile)) {
    console.error(USAGE);
    return 1;
  }
  let entry: LogEntry;
  try {
    entry = JSON.parse(fs.readFileSync(file, "utf8")) as LogEntry;
  } catch (error) {
    console.error(`invalid: cannot read ${file} as JSON (${(error as Error).message})`);
    return 1;
  }
  let keys: KeySet;
  try {
    if (keysFile) keys = JSON.parse(fs.readFileSync(keysFile, "utf8")) as KeySet;
    else {
      const issuer = String(entry.record?.issuer ?? "");
      if (!/^https?:\/\//.test(issuer)) throw new Error("the record names no issuer; pass --keys");
      const res = await fetch(`${issuer}/.well-known/grader-keys.json`);
      if (!res.ok) throw new Error(`${issuer} answered ${res.status}`);
      keys = (await res.json()) as KeySet;
    }
    if (!Array.isArray(keys?.keys)) throw new Error("not a JWKS");
  } catch (error) {
    console.error(`invalid: no keys to check with (${(error as Error).message})`);
    return 1;
  }
  const check = checkEntry(entry, keys);
  if (!check.ok) {
    console.error(`invalid: ${check.reason}`);
    return 1;
  }
  const r = entry.record as Record<string, unknown>;
  console.log(
    `valid: ${String(r.code)} (${String(r.tier)}, ${String(r.score)}) graded ${String(r.graded_at)}, log entry ${entry.seq}, signed with ${entry.kid}`,
  );
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
