/**
 * The resolver state carried in `requestState`: it round-trips every outcome with its question
 * digest, and anything it does not recognise reads as no progress, never as an error.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeResolverState,
  EMPTY_RESOLVER_STATE,
  encodeResolverState,
  RESOLVER_STATE_VERSION,
  type RecordedOutcome,
} from "./state.js";

describe("the resolver state", () => {
  it("round-trips accept, decline and cancel with their question digests, at version 1", () => {
    const outcomes = new Map<string, RecordedOutcome>([
      ["region", { action: "accept", data: { region: "eu" }, q: "q1" }],
      ["confirm", { action: "decline", q: "q2" }],
      ["notes", { action: "cancel", q: "q3" }],
    ]);
    const asked = new Map([["zone", "q4"]]);
    const text = encodeResolverState({ outcomes, asked });
    expect(RESOLVER_STATE_VERSION).toBe(1);
    expect(text).toBe(
      '{"v":1,"outcomes":{"region":{"action":"accept","data":{"region":"eu"},"q":"q1"},' +
        '"confirm":{"action":"decline","q":"q2"},"notes":{"action":"cancel","q":"q3"}},"asked":{"zone":"q4"}}',
    );
    expect(decodeResolverState(text)).toEqual({ outcomes, asked });
  });

  it("round-trips the re-ask counts of off-schema answers, writing them only when there are some", () => {
    const asked = new Map([["login", "q1"]]);
    const invalid = new Map([["login", 2]]);
    const text = encodeResolverState({ outcomes: new Map(), asked, invalid });
    expect(text).toBe('{"v":1,"outcomes":{},"asked":{"login":"q1"},"invalid":{"login":2}}');
    expect(decodeResolverState(text)).toEqual({ outcomes: new Map(), asked, invalid });
    expect(encodeResolverState({ outcomes: new Map(), asked, invalid: new Map() })).not.toContain("invalid");
    const odd = decodeResolverState(
      '{"v":1,"outcomes":{},"asked":{},"invalid":{"a":0,"b":-1,"c":1.5,"d":"2","e":3}}',
    );
    expect(odd.invalid).toEqual(new Map([["e", 3]]));
  });

  it("reads garbage, another version or a wrong shape as no progress", () => {
    for (const text of [
      undefined,
      "",
      "not json",
      "null",
      "[]",
      '{"v":3,"outcomes":{},"asked":{}}',
      '{"v":1,"outcomes":[],"asked":{}}',
      '{"v":1,"outcomes":{}}',
    ]) {
      expect(decodeResolverState(text)).toBe(EMPTY_RESOLVER_STATE);
    }
  });

  it("never throws, whatever the text", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        decodeResolverState(text);
      }),
    );
  });

  it("drops an entry without its question digest, or with an unknown action, and keeps the rest", () => {
    const state = decodeResolverState(
      JSON.stringify({
        v: 1,
        outcomes: {
          nodigest: { action: "accept", data: {} },
          odd: { action: "maybe", q: "q" },
          nodata: { action: "accept", q: "q" },
          kept: { action: "cancel", q: "q" },
        },
        asked: { a: "qa", b: 7 },
      }),
    );
    expect([...state.outcomes.keys()]).toEqual(["kept"]);
    expect([...state.asked]).toEqual([["a", "qa"]]);
  });

  it("keeps a recorded answer containing a lone surrogate intact", () => {
    const lone = "\ud800 and \udfff";
    const outcomes = new Map<string, RecordedOutcome>([
      ["n", { action: "accept", data: { text: lone }, q: "q" }],
    ]);
    const text = encodeResolverState({ outcomes, asked: new Map() });
    expect(text).toContain("\\ud800");
    expect(decodeResolverState(text).outcomes.get("n")).toEqual({
      action: "accept",
      data: { text: lone },
      q: "q",
    });
  });

  it("keeps a key named __proto__ as data, not as a prototype", () => {
    const text = '{"v":1,"outcomes":{"__proto__":{"action":"cancel","q":"q"}},"asked":{}}';
    const state = decodeResolverState(text);
    expect(state.outcomes.get("__proto__")).toEqual({ action: "cancel", q: "q" });
    expect(encodeResolverState(state)).toBe(text);
  });
});
