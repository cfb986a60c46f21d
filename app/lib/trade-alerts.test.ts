import { describe, expect, it } from "vitest";
import { parseForm } from "./forms";
import { TradeAlertSettingsForm } from "./trade-alerts";

const form = (entries: [string, string][]) => {
  const f = new FormData();
  for (const [k, v] of entries) f.append(k, v);
  return f;
};

describe("the live trade alerts settings form", () => {
  it("reads an unticked box as off, and the delay and sizes", () => {
    expect(
      parseForm(
        TradeAlertSettingsForm,
        form([
          ["delay", "eod"],
          ["sizes", "hidden"],
        ]),
      ),
    ).toMatchObject({
      ok: true,
      data: { enabled: false, delay: "eod", sizes: "hidden" },
    });
    expect(
      parseForm(
        TradeAlertSettingsForm,
        form([
          ["enabled", "on"],
          ["delay", "none"],
          ["sizes", "shown"],
        ]),
      ),
    ).toMatchObject({ ok: true, data: { enabled: true, delay: "none", sizes: "shown" } });
  });

  it("refuses an unknown delay or sizes by field, keeping what was typed", () => {
    const bad = parseForm(
      TradeAlertSettingsForm,
      form([
        ["enabled", "on"],
        ["delay", "1h"],
        ["sizes", "amounts"],
      ]),
    );
    expect(bad).toMatchObject({
      ok: false,
      errors: { delay: "Choose when your trades are shared.", sizes: "Choose whether sizes are shown." },
      values: { enabled: "on", delay: "1h", sizes: "amounts" },
    });
  });
});
