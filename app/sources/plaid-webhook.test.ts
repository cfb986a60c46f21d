import { describe, expect, it } from "vitest";
import { classifyPlaidWebhook, isRetryablePlaidFailure, PlaidFailure } from "./plaid.server";

describe("classifyPlaidWebhook", () => {
  const hook = (webhook_type: string, webhook_code: string, error_code?: string) => ({
    webhook_type,
    webhook_code,
    item_id: "i",
    error: error_code ? { error_code } : null,
  });

  it("asks for an import on new investment data and after a repaired login", () => {
    for (const [type, code] of [
      ["INVESTMENTS_TRANSACTIONS", "DEFAULT_UPDATE"],
      ["INVESTMENTS_TRANSACTIONS", "HISTORICAL_UPDATE"],
      ["HOLDINGS", "DEFAULT_UPDATE"],
      ["ITEM", "LOGIN_REPAIRED"],
    ]) {
      expect(classifyPlaidWebhook(hook(type!, code!)), `${type} ${code}`).toEqual({ action: "import" });
    }
  });

  it("marks item errors: login problems need the user, others are errors", () => {
    expect(classifyPlaidWebhook(hook("ITEM", "ERROR", "ITEM_LOGIN_REQUIRED"))).toEqual({
      action: "relogin_required",
      message: "ITEM_LOGIN_REQUIRED: reported by Plaid webhook",
    });
    expect(classifyPlaidWebhook(hook("ITEM", "ERROR", "INTERNAL_SERVER_ERROR"))).toEqual({
      action: "error",
      message: "INTERNAL_SERVER_ERROR: reported by Plaid webhook",
    });
    expect(classifyPlaidWebhook(hook("ITEM", "PENDING_EXPIRATION"))).toMatchObject({ action: "relogin_required" });
    expect(classifyPlaidWebhook(hook("ITEM", "USER_PERMISSION_REVOKED"))).toMatchObject({ action: "relogin_required" });
    expect(classifyPlaidWebhook(hook("TRANSACTIONS", "SYNC_UPDATES_AVAILABLE"))).toEqual({ action: "ignored" });
  });
});

describe("isRetryablePlaidFailure", () => {
  it("retries what may pass by itself, not what needs the user", () => {
    expect(isRetryablePlaidFailure(new PlaidFailure("provider", "INTERNAL_SERVER_ERROR", "x"))).toBe(true);
    expect(isRetryablePlaidFailure(new PlaidFailure("timeout", "TIMEOUT", "x"))).toBe(true);
    expect(isRetryablePlaidFailure(new PlaidFailure("invalid", "RATE_LIMIT_EXCEEDED", "x"))).toBe(true);
    expect(isRetryablePlaidFailure(new PlaidFailure("invalid", "PRODUCT_NOT_READY", "x"))).toBe(true);
    expect(isRetryablePlaidFailure(new PlaidFailure("relogin", "ITEM_LOGIN_REQUIRED", "x"))).toBe(false);
    expect(isRetryablePlaidFailure(new PlaidFailure("invalid", "INVALID_FIELD", "x"))).toBe(false);
  });
});
