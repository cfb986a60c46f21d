import { describe, expect, it } from "vitest";
import { displayName, initials } from "./display-name";

describe("displayName", () => {
  it("joins first and last when both exist", () => {
    expect(displayName({ first_name: "Ada", last_name: "Lovelace", name: "X", username: "ada" })).toBe("Ada Lovelace");
  });
  it("falls back to whichever name exists, then name, then username", () => {
    expect(displayName({ first_name: "Ada", username: "ada" })).toBe("Ada");
    expect(displayName({ last_name: "Lovelace", username: "ada" })).toBe("Lovelace");
    expect(displayName({ name: "Countess", username: "ada" })).toBe("Countess");
    expect(displayName({ first_name: "  ", username: "ada" })).toBe("ada");
    expect(displayName({})).toBe("");
  });
  it("makes initials, also from non-Latin names", () => {
    expect(initials({ first_name: "ada", last_name: "lovelace" })).toBe("AL");
    expect(initials({ name: "山田 太郎" })).toBe("山太");
    expect(initials({})).toBe("?");
  });
});
