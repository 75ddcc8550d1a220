import { describe, expect, it, vi } from "vitest";
import { deferred, linkSignal, onAbort } from "./async.js";

describe("linkSignal", () => {
  it("aborts the controller with the signal's reason, until unlinked", () => {
    const outer = new AbortController();
    const inner = new AbortController();
    linkSignal(outer.signal, inner);
    outer.abort("gone");
    expect(inner.signal.aborted).toBe(true);
    expect(inner.signal.reason).toBe("gone");

    const later = new AbortController();
    const untouched = new AbortController();
    linkSignal(later.signal, untouched)();
    later.abort("gone");
    expect(untouched.signal.aborted).toBe(false);
  });

  it("aborts at once for a signal that already has, and never for no signal", () => {
    const inner = new AbortController();
    linkSignal(AbortSignal.abort("early"), inner);
    expect(inner.signal.reason).toBe("early");
    const free = new AbortController();
    linkSignal(undefined, free)();
    expect(free.signal.aborted).toBe(false);
  });
});

describe("onAbort", () => {
  it("calls the listener once with the reason, and not after it is removed", () => {
    const listener = vi.fn();
    const controller = new AbortController();
    onAbort(controller.signal, listener);
    controller.abort("why");
    controller.abort("again");
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener).toHaveBeenCalledWith("why");

    const removed = vi.fn();
    const other = new AbortController();
    onAbort(other.signal, removed)();
    other.abort();
    expect(removed).not.toHaveBeenCalled();
  });
});

describe("deferred", () => {
  it("settles from outside", async () => {
    const value = deferred<number>();
    value.resolve(3);
    await expect(value.promise).resolves.toBe(3);
    const failure = deferred<number>();
    failure.reject(new Error("no"));
    await expect(failure.promise).rejects.toThrow("no");
  });

  it("with handled, a rejection nobody awaits yet is not unhandled", async () => {
    const unhandled = vi.fn();
    process.on("unhandledRejection", unhandled);
    try {
      deferred<number>({ handled: true }).reject(new Error("quiet"));
      // Node reports unhandled rejections once the microtasks drain, before the next turn.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off("unhandledRejection", unhandled);
    }
  });
});
