import { z } from "zod";

/**
 * An Interactive Brokers Flex token and the id of the trader's Activity Flex Query, as /link/ibkr's
 * form and POST /api/ibkr/wallet send them (one schema for both). Checked with IBKR before
 * anything is stored.
 */
export const IbkrFlexSchema = z.object({
  token: z
    .string({ required_error: "Enter the Flex token." })
    .trim()
    .min(1, "Enter the Flex token.")
    .max(64, "That is longer than any Flex token.")
    .regex(/^[A-Za-z0-9_-]+$/, "A Flex token is letters and digits: copy it again."),
  query_id: z
    .string({ required_error: "Enter the Query ID." })
    .trim()
    .min(1, "Enter the Query ID.")
    .max(24, "That is longer than any Query ID.")
    .regex(/^[A-Za-z0-9_-]+$/, "A Query ID is a number: copy it from the Flex Queries list."),
});
export type IbkrFlex = z.infer<typeof IbkrFlexSchema>;
