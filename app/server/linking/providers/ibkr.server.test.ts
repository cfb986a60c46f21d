import { describe, expect, it } from "vitest";
import { FlexError, flexErrorKind } from "~/sources/ibkr.server";
import { ibkrFailure } from "./ibkr.server";

// What each Flex Web Service error means for an import step (DECISIONS 193).
describe("what an error means for an import step", () => {
  it("waits for 1019 with the jobs' backoff, a minute for 1018, and marks the account for a token IBKR refused", () => {
    expect(ibkrFailure(new FlexError(1019, ""))).toMatchObject({
      retryable: true,
      waiting: true,
      retryAfterSeconds: undefined,
    });
    expect(ibkrFailure(new FlexError(1018, ""))).toMatchObject({
      retryable: true,
      waiting: true,
      retryAfterSeconds: 60,
    });
    for (const code of [1011, 1012, 1013, 1015])
      expect(ibkrFailure(new FlexError(code, "")), String(code)).toMatchObject({
        retryable: false,
        accountStatus: "relogin_required",
      });
    expect(ibkrFailure(new FlexError(1014, ""))).toMatchObject({ retryable: false, accountStatus: "error" });
    expect(ibkrFailure(new FlexError(1012, "Token has expired."))!.message).toBe(
      "The Flex token has expired: make a new one in Flex Web Service Configuration. (1012)",
    );
    expect(ibkrFailure(new Error("something else"))).toBeNull();
    expect(flexErrorKind(1017)).toBe("reference");
    expect(flexErrorKind(1099)).toBe("other");
  });
});
