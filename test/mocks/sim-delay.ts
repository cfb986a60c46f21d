import { delay } from "msw";

/**
 * One knob for every simulated provider delay: SIM_DELAY_FACTOR (default 1: demos look real; the
 * test config sets 0 so tests run fast). Read at each call so a test can change it.
 */
export function simDelayFactor(): number {
  const f = Number(process.env.SIM_DELAY_FACTOR ?? "1");
  return Number.isFinite(f) && f >= 0 ? f : 1;
}

/** Waits `ms` × SIM_DELAY_FACTOR (nothing at 0). */
export async function simDelay(ms: number): Promise<void> {
  const scaled = ms * simDelayFactor();
  if (scaled > 0) await delay(scaled);
}
