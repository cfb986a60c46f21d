/**
 * Checks a card expiry typed as "MM / YY" (spaces optional). A card is valid through the last day of
 * its expiry month, so the current month still passes. Returns the field error, or null when valid.
 */
export function cardExpiryError(input: string, now: Date = new Date()): string | null {
  const m = /^(\d{2})\s*\/\s*(\d{2})$/.exec(input.trim());
  if (!m) return "Enter the expiry as MM / YY.";
  const month = Number(m[1]);
  if (month < 1 || month > 12) return "Enter a month from 01 to 12.";
  const year = 2000 + Number(m[2]);
  if (year * 12 + (month - 1) < now.getUTCFullYear() * 12 + now.getUTCMonth())
    return "Your card's expiry date is in the past.";
  return null;
}
