import { z } from "zod";

// Live trade alerts (issue 34 point 3, DECISIONS 215): the trader's settings form, shared by the
// settings page and its action.

export const ALERT_DELAYS = ["none", "15m", "eod"] as const;
export type AlertDelay = (typeof ALERT_DELAYS)[number];

export const ALERT_DELAY_LABELS: Record<AlertDelay, string> = {
  none: "As soon as the trade is imported",
  "15m": "15 minutes after the trade",
  eod: "At the end of the trade’s day (midnight in your time zone)",
};

/**
 * The settings form: "Share my trades live" (a checkbox: absent is off), the delay, and the sizes
 * (hidden: the share of the portfolio only; shown: the quantity too; never a sum of money).
 */
export const TradeAlertSettingsForm = z.object({
  enabled: z
    .string()
    .optional()
    .transform((v) => v === "on"),
  delay: z.enum(ALERT_DELAYS, { errorMap: () => ({ message: "Choose when your trades are shared." }) }),
  sizes: z.enum(["hidden", "shown"], { errorMap: () => ({ message: "Choose whether sizes are shown." }) }),
});

export type TradeAlertSettingsInput = { enabled: boolean; delay: AlertDelay; hideSizes: boolean };
