// Code of another git revision for a bench's "before": the revision's files taken out of git into a
// temporary folder (never kept in the repo), with this tree's node_modules beside them, so a bench
// can import them and time them against this tree's code in one run. Old code stays in git.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

export const ROOT = path.resolve(import.meta.dirname, "..");

/** The short commit id `rev` names (a branch, a tag, `abc123^`…). */
export function shortCommit(rev: string): string {
  return execFileSync("git", ["rev-parse", "--short", rev], { cwd: ROOT }).toString().trim();
}

/** `paths` (folders or files) of `rev` in a temporary folder; remove it with `removeCheckout`. */
export function checkoutRevision(rev: string, paths: string[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "grader-rev-"));
  const tar = execFileSync("git", ["archive", "--format=tar", rev, ...paths], { cwd: ROOT, maxBuffer: 1 << 28 });
  execFileSync("tar", ["-x", "-C", dir], { input: tar });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  writeFileSync(path.join(dir, "package.json"), '{ "type": "module" }\n');
  return dir;
}

export function removeCheckout(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** The first of `files` (one module's paths over the revisions: files move) that `dir` holds, imported. */
export async function importFromCheckout<T>(dir: string, files: string[]): Promise<T> {
  for (const file of files) {
    const full = path.join(dir, file);
    if (existsSync(full)) return (await import(pathToFileURL(full).href)) as T;
  }
  throw new Error(`none of ${files.join(", ")} in this revision`);
}
