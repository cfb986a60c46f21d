import { z } from "zod";
import { BASE_CURRENCIES } from "./currencies";

export const MARKETS = ["us-stocks", "etfs", "options", "crypto"] as const;
export const MARKET_LABELS: Record<(typeof MARKETS)[number], string> = {
  "us-stocks": "US stocks",
  etfs: "ETFs",
  options: "Options",
  crypto: "Crypto",
};
export const EXPERIENCE = ["under-1", "1-3", "3-5", "5-10", "over-10"] as const;
export const EXPERIENCE_LABELS: Record<(typeof EXPERIENCE)[number], string> = {
  "under-1": "Less than a year",
  "1-3": "1–3 years",
  "3-5": "3–5 years",
  "5-10": "5–10 years",
  "over-10": "More than 10 years",
};

export const username = z
  .string()
  .trim()
  .transform((s) => s.toLowerCase())
  // One check per rule, so the error says what is wrong (the page's hint already states the rules).
  .pipe(
    z
      .string()
      .min(3, "At least 3 characters.")
      .max(30, "At most 30 characters.")
      .regex(/^[a-z0-9_]*$/, "Use only lowercase letters, digits and _."),
  );

const optionalName = z
  .string()
  .trim()
  .max(60, "At most 60 characters.")
  .optional()
  .transform((s) => (s ? s : null));

export const ProfileSchema = z.object({
  username,
  first_name: optionalName,
  last_name: optionalName,
});

export const OnboardingSchema = ProfileSchema.extend({
  markets: z.array(z.enum(MARKETS)).max(MARKETS.length).default([]),
  experience: z.enum(EXPERIENCE, { errorMap: () => ({ message: "Choose your experience." }) }),
});

let zones: readonly string[] | null = null;
let zoneSet: Set<string> | null = null;
/**
 * "UTC" and every IANA zone this runtime knows (Intl.supportedValuesOf leaves UTC out). Lazy, and
 * read on the server only: a browser's list may differ (and old ones lack the call).
 */
export function timeZones(): readonly string[] {
  zones ??= ["UTC", ...Intl.supportedValuesOf("timeZone")];
  return zones;
}
const isTimeZone = (v: string) => (zoneSet ??= new Set(timeZones())).has(v);

export const timeZone = z
  .string()
  .trim()
  .refine(isTimeZone, "Choose a time zone from the list (for example Europe/London or America/New_York).");

export const SettingsSchema = ProfileSchema.extend({
  // Absent in older forms: UTC, as the column's default.
  time_zone: timeZone.optional().transform((v) => v ?? "UTC"),
  // Absent in older forms: unchanged.
  base_currency: z
    .enum(BASE_CURRENCIES, {
      errorMap: () => ({ message: "Choose a currency from the list (for example USD or EUR)." }),
    })
    .optional(),
  show_amounts: z.enum(["percentages", "amounts"]).transform((v) => v === "amounts"),
  // A checkbox: present ("on") when ticked, absent otherwise.
  share_trades: z
    .literal("on")
    .optional()
    .transform((v) => v === "on"),
});
