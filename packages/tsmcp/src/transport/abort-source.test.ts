import { describe, expect, it } from "vitest";
import { abortSourceOf, carryingAbortSource, LazyAbortController } from "./abort-source.js";

describe("LazyAbortController", () => {
  it("makes a signal that reads as aborted, with the reason, when the abort came before it was read", () => {
    const controller = new LazyAbortController();
    const reason = new Error("gave up");
    controller.abort(reason);
    expect(controller.aborted).toBe(true);
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toBe(reason);
  });

  it("aborts a signal read before the abort, and calls each listener once with the reason", () => {
    const controller = new LazyAbortController();
    const signal = controller.signal;
    const heard: unknown[] = [];
    controller.onAbort((reason) => heard.push(reason));
    controller.abort("first");
    controller.abort("second");
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe("first");
    expect(heard).toEqual(["first"]);
  });

  it("does not call a listener that was removed, nor one added after the abort", () => {
    const controller = new LazyAbortController();
    const heard: string[] = [];
    const remove = controller.onAbort(() => heard.push("removed"));
    remove();
    controller.abort();
    controller.onAbort(() => heard.push("late"));
    expect(heard).toEqual([]);
    expect(controller.reason).toBeInstanceOf(DOMException);
  });
});

describe("abortSourceOf", () => {
  it("reads the controller that options carry, without making their signal", () => {
    const controller = new LazyAbortController();
    let reads = 0;
    const options = carryingAbortSource(
      {
        get signal() {
          reads++;
          return controller.signal;
        },
      },
      controller,
    );
    expect(abortSourceOf(options)).toBe(controller);
    expect(reads).toBe(0);
  });

  it("follows a plain signal of options that carry none, and is undefined without a signal", () => {
    const plain = new AbortController();
    const source = abortSourceOf({ signal: plain.signal });
    const heard: unknown[] = [];
    source?.onAbort((reason) => heard.push(reason));
    plain.abort("stop");
    expect(source?.aborted).toBe(true);
    expect(source?.reason).toBe("stop");
    expect(heard).toEqual(["stop"]);
    expect(abortSourceOf({})).toBeUndefined();
    expect(abortSourceOf(undefined)).toBeUndefined();
  });
});
