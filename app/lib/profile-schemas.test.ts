import { describe, expect, it } from "vitest";
import { username } from "./profile-schemas";

const errorOf = (value: string) => {
  const r = username.safeParse(value);
  return r.success ? null : r.error.issues[0]!.message;
};

describe("username", () => {
  it("accepts 3 to 30 lowercase letters, digits and _, lower-casing what is typed", () => {
    expect(username.parse(" Ada_99 ")).toBe("ada_99");
    expect(errorOf("abc")).toBeNull();
    expect(errorOf("a".repeat(30))).toBeNull();
  });

  it("says which rule a bad username breaks", () => {
    expect(errorOf("")).toBe("At least 3 characters.");
    expect(errorOf("ab")).toBe("At least 3 characters.");
    expect(errorOf("a".repeat(31))).toBe("At most 30 characters.");
    expect(errorOf("no spaces!")).toBe("Use only lowercase letters, digits and _.");
    expect(errorOf("dot.name")).toBe("Use only lowercase letters, digits and _.");
  });
});

describe("time zone", () => {
  it("accepts UTC and IANA zones, and refuses anything else with a clear message", async () => {
    const { timeZone, timeZones } = await import("./profile-schemas");
    expect(timeZone.parse("UTC")).toBe("UTC");
    expect(timeZone.parse(" Europe/London ")).toBe("Europe/London");
    expect(timeZones()).toContain("America/New_York");
    for (const bad of ["Mars/Olympus", "utc+2", "", "Europe/London; drop table"]) {
      const r = timeZone.safeParse(bad);
      expect(r.success).toBe(false);
      if (!r.success) expect(r.error.issues[0]!.message).toMatch(/Choose a time zone/);
    }
  });
});
