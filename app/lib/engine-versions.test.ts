import { describe, expect, it } from "vitest";
import { changelogPath, engineMajor, isOlderEngineVersion } from "./engine-versions";

describe("engine versions", () => {
  it("reads the major", () => {
    expect(engineMajor("3.0.0")).toBe("3");
    expect(engineMajor("12.4.1")).toBe("12");
  });

  it("orders versions as numbers, never downwards", () => {
    expect(isOlderEngineVersion("2.0.0", "3.0.0")).toBe(true);
    expect(isOlderEngineVersion("9.1.0", "10.0.0")).toBe(true);
    expect(isOlderEngineVersion("3.0.0", "3.0.0")).toBe(false);
    expect(isOlderEngineVersion("3.1.0", "3.0.0")).toBe(false);
    expect(isOlderEngineVersion("2.0", "2.0.1")).toBe(true);
    expect(isOlderEngineVersion("", "3.0.0")).toBe(true);
  });

  it("links the glossary's section of the version", () => {
    expect(changelogPath("3.0.0")).toBe("/glossary#engine-v3.0.0");
  });
});
