import { describe, expect, it } from "vitest";
import { reloginMessage } from "./imports";

describe("reloginMessage", () => {
  it("says why from the Plaid code and how to resume", () => {
    expect(
      reloginMessage("ITEM_LOGIN_REQUIRED: Your broker needs you to log in again. Use Reconnect to continue."),
    ).toBe("Your broker needs you to log in again. Use Reconnect: imports resume after it.");
    expect(reloginMessage("PENDING_EXPIRATION: reported by Plaid webhook")).toBe(
      "Your broker's consent for Grader expires soon. Use Reconnect: imports resume after it.",
    );
    expect(reloginMessage("USER_PERMISSION_REVOKED: reported by Plaid webhook")).toMatch(
      /^Access to your broker was revoked\./,
    );
    expect(reloginMessage(null)).toBe("Your broker needs you to log in again. Use Reconnect: imports resume after it.");
  });
});
