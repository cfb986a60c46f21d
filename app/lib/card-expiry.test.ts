import { describe, expect, it } from "vitest";
import { cardExpiryError } from "./card-expiry";

const now = new Date("2026-05-15T12:00:00Z");

describe("cardExpiryError", () => {
  it("accepts this month and any later one, with or without spaces", () => {
    expect(cardExpiryError("05/26", now)).toBeNull();
    expect(cardExpiryError("06 / 26", now)).toBeNull();
    expect(cardExpiryError("01/27", now)).toBeNull();
    expect(cardExpiryError(" 12 / 34 ", now)).toBeNull();
  });

  it("refuses a past month or year", () => {
    expect(cardExpiryError("04/26", now)).toBe("Your card's expiry date is in the past.");
    expect(cardExpiryError("01/20", now)).toBe("Your card's expiry date is in the past.");
    expect(cardExpiryError("12/25", now)).toBe("Your card's expiry date is in the past.");
  });

  it("refuses a month that does not exist and other shapes", () => {
    expect(cardExpiryError("00/30", now)).toBe("Enter a month from 01 to 12.");
    expect(cardExpiryError("13/30", now)).toBe("Enter a month from 01 to 12.");
    for (const bad of ["", "1/30", "0130", "01/2030", "ab/cd"])
      expect(cardExpiryError(bad, now), bad).toBe("Enter the expiry as MM / YY.");
  });
});
