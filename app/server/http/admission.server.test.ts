import { describe, expect, it } from "vitest";
import { createAdmission, isDownloadPath } from "./admission.server";

describe("createAdmission", () => {
  it("admits up to max at once, queues the next in order, and refuses those that wait too long", async () => {
    const admission = createAdmission(2, 50);
    const started: number[] = [];
    const releases: (() => void)[] = [];
    const refused: number[] = [];
    for (let i = 0; i < 5; i++)
      admission.enter(
        (release) => (started.push(i), releases.push(release)),
        () => refused.push(i),
      );
    expect(started).toEqual([0, 1]);
    expect(admission.stats()).toMatchObject({ inFlight: 2, queued: 3 });
    releases[0]!();
    releases[0]!(); // twice is once
    expect(started).toEqual([0, 1, 2]);
    expect(admission.stats()).toMatchObject({ inFlight: 2, queued: 2 });
    await new Promise((r) => setTimeout(r, 80));
    expect(refused).toEqual([3, 4]);
    expect(admission.stats()).toEqual({ inFlight: 2, queued: 0, refused: 2 });
    releases[1]!();
    releases[2]!();
    expect(admission.stats().inFlight).toBe(0);
  });

  it("refuses at once when the queue is full, and queues again once it drains", () => {
    const admission = createAdmission(1, 10_000, 2);
    const started: number[] = [];
    const refused: number[] = [];
    const releases: (() => void)[] = [];
    for (let i = 0; i < 5; i++)
      admission.enter(
        (release) => (started.push(i), releases.push(release)),
        () => refused.push(i),
      );
    expect(started).toEqual([0]);
    expect(refused).toEqual([3, 4]);
    expect(admission.stats()).toEqual({ inFlight: 1, queued: 2, refused: 2 });
    releases[0]!();
    expect(started).toEqual([0, 1]);
    admission.enter(
      (release) => (started.push(5), releases.push(release)),
      () => refused.push(5),
    );
    expect(admission.stats()).toEqual({ inFlight: 1, queued: 2, refused: 2 });
    releases[1]!();
    releases[2]!();
    releases[3]!();
    expect(started).toEqual([0, 1, 2, 5]);
    expect(admission.stats()).toEqual({ inFlight: 0, queued: 0, refused: 2 });
  });
});

describe("isDownloadPath", () => {
  it("knows the downloads as the router reads their paths, and nothing else", () => {
    for (const path of [
      "/api/portal/ledger",
      "/api/portal/trades.csv",
      "/api/portal/round_trips.csv",
      "/user/settings/data.json",
      "/API/Portal/Ledger",
      "/api/portal/trades%2Ecsv",
      "/api/portal/round_trips.csv/",
      "/api//portal/ledger",
    ])
      expect(isDownloadPath(path), path).toBe(true);
    for (const path of ["/api/portal/trades", "/api/portal/round_trips", "/profile/stats", "/api/portal/ledger%", "/"])
      expect(isDownloadPath(path), path).toBe(false);
  });
});

describe("a downloads admission without a queue", () => {
  it("refuses at once when its slots are taken, and admits again once one is released", () => {
    const downloads = createAdmission(1, 0, 0);
    let release!: () => void;
    downloads.enter(
      (r) => (release = r),
      () => expect.unreachable(),
    );
    let refused = false;
    downloads.enter(
      () => expect.unreachable(),
      () => (refused = true),
    );
    expect(refused).toBe(true);
    release();
    let admitted = false;
    downloads.enter(
      () => (admitted = true),
      () => expect.unreachable(),
    );
    expect(admitted).toBe(true);
  });
});
