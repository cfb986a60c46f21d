import { describe, expect, it } from "vitest";
import { GLOSSARY, skillInWords } from "./glossary";

describe("skill vs luck in words", () => {
  it("says how likely the edge is and how many more active days reach 95 %", () => {
    expect(skillInWords(0.8712, 320.2, 180)).toBe(
      "87% likely your edge is real; 141 more active days like these would make it 95%.",
    );
    expect(skillInWords(0.9, 91, 90)).toBe(
      "90% likely your edge is real; 1 more active day like these would make it 95%.",
    );
    expect(skillInWords(0.97, 40, 200)).toBe("97% likely your edge is real: past the 95% mark.");
    // No positive Sharpe ratio: no track record length can reach 95 %.
    expect(skillInWords(0.31, null, 200)).toBe(
      "31% likely your edge is real; the record does not yet show a positive edge to build on.",
    );
    expect(skillInWords(null, null, 3)).toBeNull();
  });

  it("every glossary line is one short sentence", () => {
    for (const [k, e] of Object.entries(GLOSSARY)) {
      expect(e.text, k).toMatch(/^[A-Z0-9].*\.$/);
      expect(e.text.length, k).toBeLessThan(200);
    }
  });
});
