import fs from "node:fs";
import path from "node:path";

/**
 * One writer per PGlite data folder. PGlite is a single-process database: two processes on one
 * folder both start, hand out the same ids and lose acknowledged writes. The lock is a file
 * created with O_EXCL holding the owner's pid; a later start finds it and checks whether that
 * process is alive. A lock left by a process killed with -9 names a dead pid and is taken over,
 * so it never blocks the next start.
 */
export class DataDirLockedError extends Error {}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, under another user.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  // A reused pid: on Linux, a live process that is not Node is not the lock's owner.
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("node");
  } catch {
    return true;
  }
}

/** Takes the lock on `dir` or throws DataDirLockedError naming it; returns the release function. */
export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "grader.lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: "wx", mode: 0o644 });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(file, "utf8").trim() === String(process.pid)) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    let owner = NaN;
    try {
      owner = Number(fs.readFileSync(file, "utf8").trim());
    } catch {
      continue; // removed meanwhile: try again
    }
    if (owner !== process.pid && isAlive(owner)) {
      throw new DataDirLockedError(
        `The data folder ${dir} is in use by process ${owner} (lock file ${file}). PGlite allows one process per folder: stop the other one, give this one another DATA_DIR, or use PostgreSQL (DATABASE_URL) for several processes.`,
      );
    }
    // Left by a process that no longer runs (kill -9, a crash): take it over.
    try {
      fs.unlinkSync(file);
    } catch {
      /* someone else took it over first; the next attempt sees theirs */
    }
  }
  throw new DataDirLockedError(`Could not take the lock file ${file}: another process keeps taking it.`);
}
