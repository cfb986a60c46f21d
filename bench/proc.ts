import { readFileSync } from "node:fs";

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
