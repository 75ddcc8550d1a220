import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { startDeadline } from "./deadlines.js";

describe("request deadlines", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("expires a deadline once its timeout has passed, not a millisecond before", () => {
    const expired: string[] = [];
    startDeadline(1_000, () => expired.push("a"));
    vi.advanceTimersByTime(999);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(["a"]);
    vi.advanceTimersByTime(5_000);
    expect(expired).toEqual(["a"]);
  });

  it("never expires a cancelled deadline and still expires the later ones at their own time", () => {
    const expired: string[] = [];
    const first = startDeadline(1_001, () => expired.push("first"));
    vi.advanceTimersByTime(400);
    startDeadline(1_001, () => expired.push("second"));
    first.cancel();
    vi.advanceTimersByTime(1_000);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(["second"]);
  });

  it("expires deadlines of different lengths each at its own time", () => {
    const expired: string[] = [];
    startDeadline(3_002, () => expired.push("long"));
    startDeadline(1_002, () => expired.push("short"));
    vi.advanceTimersByTime(1_002);
    expect(expired).toEqual(["short"]);
    vi.advanceTimersByTime(2_000);
    expect(expired).toEqual(["short", "long"]);
  });

  it("expires a deadline started after all earlier ones were cancelled", () => {
    const expired: string[] = [];
    for (let i = 0; i < 3_000; i++) startDeadline(1_003, () => expired.push("early")).cancel();
    vi.advanceTimersByTime(500);
    startDeadline(1_003, () => expired.push("late"));
    vi.advanceTimersByTime(1_002);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(["late"]);
  });
});
