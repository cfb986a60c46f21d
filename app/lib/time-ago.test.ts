import { describe, expect, it } from "vitest";
import { formatDay } from "./format-number";
import { timeAgo } from "./time-ago";

const now = new Date("2026-11-21T12:00:00Z");
const ago = (ms: number) => new Date(now.getTime() - ms);
const m = 60_000,
  h = 60 * m,
  d = 24 * h;

describe("timeAgo", () => {
  it("follows PRODUCT §4's steps", () => {
    expect(timeAgo(ago(59_999), now)).toBe("Just now");
    expect(timeAgo(ago(m), now)).toBe("1 minute ago");
    expect(timeAgo(ago(59 * m), now)).toBe("59 minutes ago");
    expect(timeAgo(ago(h), now)).toBe("1 hour ago");
    expect(timeAgo(ago(23 * h + 59 * m), now)).toBe("23 hours ago");
    expect(timeAgo(ago(d), now)).toBe("1 day ago");
    expect(timeAgo(ago(6 * d), now)).toBe("6 days ago");
    expect(timeAgo(ago(7 * d), now)).toBe("1 week ago");
    expect(timeAgo(ago(27 * d), now)).toBe("3 weeks ago");
    expect(timeAgo(ago(29 * d), now)).toBe("1 month ago");
    expect(timeAgo(new Date("2026-01-22T12:00:00Z"), now)).toBe("9 months ago");
    expect(timeAgo(new Date("2025-11-21T12:00:00Z"), now)).toBe("1 year ago");
    expect(timeAgo(new Date("2023-06-01T00:00:00Z"), now)).toBe("3 years ago");
  });
  it("shows a date from one day on in day mode", () => {
    expect(timeAgo(ago(2 * h), now, { dayMode: true })).toBe("2 hours ago");
    expect(timeAgo(new Date("2025-07-01T09:00:00Z"), now, { dayMode: true })).toBe("Jul 1, 2025");
    expect(formatDay(new Date("2025-12-31T23:59:59Z"))).toBe("Dec 31, 2025");
  });
  it("never shows a negative time for clock skew", () => {
    expect(timeAgo(new Date(now.getTime() + 5000), now)).toBe("Just now");
  });
});
