/**
 * Simulated provider latency. SIM_DELAY_FACTOR scales every simulated delay: 1 (default) answers
 * about as fast as the real services, 0 as fast as possible (tests), 10 slowly enough to watch an
 * import's progress or stop a server in the middle of one.
 */
export function simDelayFactor(): number {
  const raw = Number(process.env.SIM_DELAY_FACTOR ?? "1");
  return Number.isFinite(raw) && raw >= 0 ? raw : 1;
}

export async function simDelay(baseMs: number): Promise<void> {
  const ms = baseMs * simDelayFactor();
  if (ms > 0) await new Promise((r) => setTimeout(r, ms));
}
