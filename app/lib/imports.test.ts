import { describe, expect, it } from "vitest";
import { gradeIsCurrent, reloginMessage, type ImportView } from "./imports";

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

describe("gradeIsCurrent", () => {
  const imp = (over: Partial<ImportView>): ImportView => ({
    id: 1,
    linked_account_id: 1,
    account_label: "Broker",
    kind: "plaid",
    reason: "link",
    state: "done",
    fetched: 10,
    total: 10,
    skipped: [],
    trades_added: 10,
    error: null,
    attempts: 1,
    created_at: "2026-11-01T10:00:00.000Z",
    updated_at: "2026-11-01T10:01:00.000Z",
    finished_at: "2026-11-01T10:01:00.000Z",
    ...over,
  });
  const grade = { createdAt: "2026-11-01T10:00:50.000Z" };
  it("holds once the last import to finish made its automatic grade", () => {
    expect(gradeIsCurrent([imp({})], grade)).toBe(true);
    // An older import's failed grade does not matter once a later one graded.
    const failed = imp({
      id: 2,
      error: "The import finished, but the automatic grade could not be made. Ask for a grade.",
      finished_at: "2026-11-01T09:00:00.000Z",
    });
    expect(gradeIsCurrent([imp({}), failed], grade)).toBe(true);
  });
  it("does not hold without a grade, while an import runs, or when the last one could not grade", () => {
    expect(gradeIsCurrent([imp({})], null)).toBe(false);
    expect(gradeIsCurrent([imp({}), imp({ id: 2, state: "fetching", finished_at: null })], grade)).toBe(false);
    expect(gradeIsCurrent([imp({ state: "failed", error: "The provider kept failing." })], grade)).toBe(false);
    expect(
      gradeIsCurrent(
        [
          imp({}),
          imp({
            id: 2,
            error: "The import finished, but the automatic grade could not be made. Ask for a grade.",
            finished_at: "2026-11-02T00:00:00.000Z",
          }),
        ],
        grade,
      ),
    ).toBe(false);
  });
});
