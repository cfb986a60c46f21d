import { z } from "zod";
import { EXCHANGE_IDS, EXCHANGE_VIEWS } from "./exchanges";

/**
 * An exchange's read-only key, as the link page's form and POST /api/exchange/wallet send it (one
 * schema for both). The key is checked with the exchange before anything is stored.
 */
export const ExchangeKeySchema = z.object({
  exchange: z.enum(EXCHANGE_IDS, {
    errorMap: () => ({ message: `Choose an exchange: one of ${EXCHANGE_IDS.join(", ")}.` }),
  }),
  api_key: z
    .string({ required_error: "Enter the API key." })
    .trim()
    .min(1, "Enter the API key.")
    .max(512, "That is longer than any exchange's API key."),
  secret: z
    .string({ required_error: "Enter the secret that came with the key." })
    .trim()
    .min(1, "Enter the secret that came with the key.")
    .max(4096, "That is longer than any exchange's secret."),
  passphrase: z
    .string()
    .trim()
    .max(256, "That is longer than any exchange's passphrase.")
    .optional()
    .transform((v) => v || undefined),
});
export type ExchangeKey = z.infer<typeof ExchangeKeySchema>;

export const EXCHANGE_OPTIONS = EXCHANGE_IDS.map((id) => [id, EXCHANGE_VIEWS[id].name] as const);
