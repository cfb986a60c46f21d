import { readdirSync, readFileSync } from "node:fs";

/**
 * CPU time (user + system) a process has used so far, in ms, from /proc (Linux; null elsewhere).
 * Per-request CPU is steadier than requests/s on a machine other work keeps busy.
 */
export function cpuMsOf(pid: number): number | null {
  try {
    // Fields after the command name: utime and stime are the 12th and 13th, in clock ticks (100/s).
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** CPU time (user + system) of every process with this command name (e.g. "postgres"), in ms. */
export function cpuMsOfCommand(command: string): number | null {
  try {
    let total = 0;
    for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
      try {
        if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() !== command) continue;
        total += cpuMsOf(Number(pid)) ?? 0;
      } catch {
        // The process ended between the listing and the read.
      }
    }
    return total;
  } catch {
    return null;
  }
}
