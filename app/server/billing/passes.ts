import { getEnv, type Env } from "../platform/env.server";

/**
 * The paid passes, in one place: what each costs, what it adds, and its Stripe price id (from the
 * environment, STRIPE_PRICE_<PASS>; demo mode uses the price_demo_* defaults the Stripe simulator
 * knows). A pass adds `evaluations` to the lifetime allowance (users.extra_tries) and/or
 * `unlimitedDays` during which the daily evaluation limit does not apply (users.unlimited_until,
 * extended from the later of now and its current end).
 */
export type PassId = "starter" | "pro" | "unlimited";

export type Pass = {
  id: PassId;
  name: string;
  /** Price in US cents, what Checkout charges (the Stripe price must match). */
  priceCents: number;
  currency: "usd";
  evaluations: number;
  unlimitedDays: number;
  blurb: string;
  envKey: keyof Env & `STRIPE_PRICE_${string}`;
};

export const PASSES: readonly Pass[] = [
  {
    id: "starter",
    name: "Starter pass",
    priceCents: 499,
    currency: "usd",
    evaluations: 10,
    unlimitedDays: 0,
    blurb: "10 more evaluations, never expire.",
    envKey: "STRIPE_PRICE_STARTER",
  },
  {
    id: "pro",
    name: "Pro pass",
    priceCents: 1499,
    currency: "usd",
    evaluations: 50,
    unlimitedDays: 0,
    blurb: "50 more evaluations, never expire.",
    envKey: "STRIPE_PRICE_PRO",
  },
  {
    id: "unlimited",
    name: "Unlimited month",
    priceCents: 2999,
    currency: "usd",
    evaluations: 100,
    unlimitedDays: 30,
    blurb: "100 more evaluations and 30 days without the daily limit.",
    envKey: "STRIPE_PRICE_UNLIMITED",
  },
];

export function demoPriceId(id: PassId): string {
  return `price_demo_${id}`;
}

export function stripePriceId(pass: Pass, env: Env = getEnv()): string {
  return env[pass.envKey] ?? demoPriceId(pass.id);
}

export function passById(id: string | null | undefined): Pass | undefined {
  return PASSES.find((p) => p.id === id);
}

export function passByPriceId(priceId: string | null | undefined, env: Env = getEnv()): Pass | undefined {
  if (!priceId) return undefined;
  return PASSES.find((p) => stripePriceId(p, env) === priceId);
}

export function formatPrice(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

/** Plain data for pages (no env types): id, name, price, what it adds, its price id. */
export function publicPasses(env: Env = getEnv()) {
  return PASSES.map((p) => ({
    id: p.id,
    name: p.name,
    price: formatPrice(p.priceCents),
    priceCents: p.priceCents,
    evaluations: p.evaluations,
    unlimitedDays: p.unlimitedDays,
    blurb: p.blurb,
    priceId: stripePriceId(p, env),
  }));
}
