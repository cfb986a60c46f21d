import { describe, expect, it } from "vitest";
import { badgeCount } from "./format-number";
import { digestText, notificationText, NOTIFICATION_KINDS, parseNotificationSettings } from "./notifications";

const form = (entries: [string, string][]) => {
  const f = new FormData();
  for (const [k, v] of entries) f.append(k, v);
  return f;
};

describe("notificationText", () => {
  it("says who did what, merging repeated events", () => {
    expect(notificationText({ kind: "message", count: 1, actor: "Ann Lee", data: {} })).toBe(
      "Ann Lee sent you a message",
    );
    expect(notificationText({ kind: "message", count: 3, actor: "Ann Lee", data: {} })).toBe(
      "Ann Lee sent you 3 messages",
    );
    expect(notificationText({ kind: "like", count: 2, actor: "Bo", data: {} })).toBe("Bo and 1 other liked your post");
    expect(notificationText({ kind: "like", count: 4, actor: "Bo", data: {} })).toBe("Bo and 3 others liked your post");
    expect(notificationText({ kind: "follow", count: 1, actor: null, data: {} })).toBe(
      "A trader started following you",
    );
    expect(notificationText({ kind: "mention", count: 1, actor: "Cy", data: {} })).toBe("Cy mentioned you in a post");
  });

  it("names the tiers of a grade change and the numbers of an import", () => {
    expect(
      notificationText({ kind: "grade_change", count: 1, actor: "Di", data: { from: "Silver", to: "Gold" } }),
    ).toBe("Di’s grade changed from Silver to Gold");
    expect(notificationText({ kind: "grade_change", count: 1, actor: "Di", data: { from: null, to: "Bronze" } })).toBe(
      "Di got a first grade: Bronze",
    );
    expect(
      notificationText({
        kind: "import_done",
        count: 1,
        actor: null,
        data: { trades_added: 1234, source: "Demo Brokerage" },
      }),
    ).toBe("Your Demo Brokerage import finished: 1,234 new trades");
    expect(notificationText({ kind: "import_done", count: 1, actor: null, data: { trades_added: 1 } })).toBe(
      "Your account import finished: 1 new trade",
    );
    expect(notificationText({ kind: "grade_done", count: 1, actor: null, data: { tier: "Gold" } })).toBe(
      "Your new grade is ready: Gold",
    );
    expect(
      notificationText({
        kind: "season_win",
        count: 1,
        actor: null,
        data: { month: "2026-11", label: "November 2026", rank: 2, points: 750 },
      }),
    ).toBe("You finished #2 in the November 2026 season: 750 points");
    // A live trade alert: the share and the tier; the quantity only when the trader shows sizes.
    const alert = (data: Record<string, unknown>) =>
      notificationText({ kind: "trade_alert", count: 1, actor: "Ann Lee", data });
    expect(alert({ symbol: "AAPL", side: "buy", tier: "Gold", share: 0.052, quantity: null })).toBe(
      "Ann Lee bought AAPL · 5.2% of the portfolio · Gold",
    );
    expect(alert({ symbol: "BTC", side: "sell", tier: null, share: 0.25, quantity: 0.125 })).toBe(
      "Ann Lee sold 0.125 BTC · 25% of the portfolio",
    );
    expect(alert({ symbol: "TSLA", side: "buy", tier: "Legend", share: null, quantity: null })).toBe(
      "Ann Lee bought TSLA · Legend",
    );
    const recomputed = (data: Record<string, unknown>) =>
      notificationText({ kind: "grade_recomputed", count: 1, actor: null, data });
    expect(recomputed({ version: "3.0.0", from: "Gold", to: "Silver", fromScore: 61.2, toScore: 48 })).toBe(
      "Your grade was recomputed under engine v3: Gold → Silver. Why?",
    );
    expect(recomputed({ version: "3.0.0", from: "Gold", to: "Gold", fromScore: 61.25, toScore: 58.4 })).toBe(
      "Your grade was recomputed under engine v3: still Gold (score 61.2 → 58.4). Why?",
    );
    expect(recomputed({ version: "3.1.0", from: null, to: "Bronze" })).toBe(
      "Your grade was recomputed under engine v3: no tier → Bronze. Why?",
    );
    // Re-made in a new base currency (issue 32): the currency, not the engine.
    expect(recomputed({ reason: "base-currency", currency: "EUR", version: "3.0.0", from: "Gold", to: "Silver" })).toBe(
      "Your grade was re-made in euros: Gold → Silver.",
    );
    expect(
      recomputed({
        reason: "base-currency",
        currency: "SEK",
        from: "Gold",
        to: "Gold",
        fromScore: 61.2,
        toScore: 61.2,
      }),
    ).toBe("Your grade was re-made in Swedish krona (SEK): still Gold (score 61.2 → 61.2).");
  });

  it("says who asked to join which club, and that a request was approved", () => {
    const data = { club: "Crypto Swing" };
    expect(notificationText({ kind: "club_request", count: 1, actor: "Ann Lee", data })).toBe(
      "Ann Lee asked to join Crypto Swing",
    );
    expect(notificationText({ kind: "club_request", count: 3, actor: "Ann Lee", data })).toBe(
      "Ann Lee and 2 others asked to join Crypto Swing",
    );
    expect(notificationText({ kind: "club_joined", count: 1, actor: "Bo", data })).toBe(
      "You are now a member of Crypto Swing",
    );
  });

  it("has a text for every kind", () => {
    for (const kind of NOTIFICATION_KINDS)
      expect(notificationText({ kind, count: 1, actor: "X", data: {} }).length).toBeGreaterThan(10);
  });
});

describe("badgeCount", () => {
  it("caps at 99+", () => {
    expect([1, 99, 100, 5000].map(badgeCount)).toEqual(["1", "99", "99+", "99+"]);
  });
});

describe("parseNotificationSettings", () => {
  it("mutes every kind not ticked", () => {
    const parsed = parseNotificationSettings(
      form([
        ["kinds", "message"],
        ["kinds", "follow"],
        ["push", "message"],
        ["push", "like"],
        ["digest", "weekly"],
      ]),
    );
    // "like" is muted, so it is not pushed either.
    expect(parsed).toEqual({
      ok: true,
      digest: "weekly",
      muted: NOTIFICATION_KINDS.filter((k) => k !== "message" && k !== "follow"),
      push: ["message"],
    });
  });

  it("refuses an unknown kind or frequency", () => {
    expect(
      parseNotificationSettings(
        form([
          ["kinds", "spam"],
          ["digest", "off"],
        ]),
      ),
    ).toEqual({ ok: false, status: 400, message: "Unknown kind of notification." });
    expect(
      parseNotificationSettings(
        form([
          ["push", "spam"],
          ["digest", "off"],
        ]),
      ),
    ).toEqual({ ok: false, status: 400, message: "Unknown kind of notification." });
    expect(parseNotificationSettings(form([["digest", "hourly"]]))).toEqual({
      ok: false,
      status: 400,
      message: "Choose off, daily or weekly.",
    });
  });
});

describe("digestText", () => {
  it("lists the items with absolute links and the way to stop", () => {
    const mail = digestText([{ text: "Ann followed you", url: "/u/4" }], "https://grader.example/", "daily");
    expect(mail.subject).toBe("Grader: 1 unread notification");
    expect(mail.text).toContain("- Ann followed you\n  https://grader.example/u/4");
    expect(mail.text).toContain("https://grader.example/user/settings/notifications");
    expect(mail.text).toContain("daily summary");
  });
});
