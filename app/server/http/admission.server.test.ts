import { describe, expect, it } from "vitest";
import { createAdmission } from "./admission.server";

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
