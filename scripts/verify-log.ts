import fs from "node:fs";
import { checkChain, type KeySet, type LogEntry } from "../app/server/grades/grade-verify.server";

// `npm run verify-log [-- --url https://host] [--keys keys.json]`: walks the public grade log and
// checks every signature, hash and link. Without --url it reads this server's database (stop a
// PGlite server first: PGlite is one process) and also compares every stored grade with its
// signed record. Exit 0 intact, 1 when anything was changed or removed.
function option(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}

async function fromApi(base: string, keysFile: string | undefined): Promise<number> {
  const origin = base.replace(/\/$/, "");
  const keys = (
    keysFile
      ? JSON.parse(fs.readFileSync(keysFile, "utf8"))
      : await (await fetch(`${origin}/.well-known/grader-keys.json`)).json()
  ) as KeySet;
  const entries: LogEntry[] = [];
  let after = 0;
  let head: { seq: number; hash: string } | undefined;
  for (;;) {
    const res = await fetch(`${origin}/api/grades/log?after=${after}`);
    if (!res.ok) throw new Error(`${origin} answered ${res.status}`);
    const body = (await res.json()) as {
      data: LogEntry[];
      meta: { next: number | null; head: { seq: number; hash: string } };
    };
    entries.push(...body.data);
    head = body.meta.head;
    if (body.meta.next === null) break;
    after = body.meta.next;
  }
  const chain = checkChain(entries, keys);
  const problems = chain.ok ? [] : [`entry ${chain.failure!.seq}: ${chain.failure!.reason}`];
  if (chain.ok && head && (head.seq !== chain.head.seq || (head.seq > 0 && head.hash !== chain.head.hash)))
    problems.push(`the log's head is ${head.seq} but the chain ends at ${chain.head.seq}`);
  return report(chain.checked, problems);
}

async function fromDatabase(): Promise<number> {
  const { closeDb, migrateToLatest } = await import("../app/server/platform/db.server");
  const { auditGradeLog } = await import("../app/server/grades/grade-log.server");
  try {
    await migrateToLatest();
    const audit = await auditGradeLog();
    return report(audit.checked, audit.problems);
  } finally {
    await closeDb();
  }
}

function report(checked: number, problems: string[]): number {
  if (problems.length === 0) {
    console.log(`intact: ${checked} entries checked`);
    return 0;
  }
  for (const p of problems) console.error(`broken: ${p}`);
  console.error(`${problems.length} problem(s) after ${checked} intact entries`);
  return 1;
}

const argv = process.argv.slice(2);
const url = option(argv, "--url");
try {
  process.exitCode = url ? await fromApi(url, option(argv, "--keys")) : await fromDatabase();
} catch (error) {
  console.error(`broken: cannot read the log (${(error as Error).message})`);
  process.exitCode = 1;
}
