import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  argumentsDigest,
  canonicalJson,
  checkClaims,
  encodeClaims,
  openClaims,
  REQUEST_STATE_ENVELOPE_VERSION,
  REQUEST_STATE_FUTURE_SKEW_MS,
  type RequestBinding,
  type RequestStateClaims,
  requestBinding,
} from "./claims.js";
import { InvalidRequestState } from "./errors.js";
import { principalClaim } from "./principal.js";
import { envelopeFields, T0_MS } from "./state-test-fixtures.js";

const BINDING: RequestBinding = requestBinding("tools/call", {
  name: "provision",
  arguments: { name: "orders" },
});

function claims(overrides: Partial<RequestStateClaims> = {}): RequestStateClaims {
  return {
    issuedAtMs: T0_MS,
    expiresAtMs: T0_MS + 600_000,
    binding: BINDING,
    state: "round-1",
    audience: "Provisioner",
    principalClaim: undefined,
    ...overrides,
  };
}

/** The bytes of a text field: a 32-bit big-endian length, then the bytes. */
function field(bytes: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** A copy of `payload` with `edit` applied. */
function edited(payload: Uint8Array, edit: (bytes: Buffer) => void): Buffer {
  const bytes = Buffer.from(payload);
  edit(bytes);
  return bytes;
}

function reasonOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (error instanceof InvalidRequestState) return error.reason;
    throw error;
  }
  throw new Error("expected InvalidRequestState, but nothing was thrown");
}

const expectation = {
  nowMs: T0_MS,
  binding: BINDING,
  audience: "Provisioner" as string | null,
  principal: (): string | undefined => undefined,
};

describe("the claims envelope", () => {
  it("pins the envelope version and the sixty-second future skew", () => {
    expect(REQUEST_STATE_ENVELOPE_VERSION).toBe(2);
    expect(REQUEST_STATE_FUTURE_SKEW_MS).toBe(60_000);
  });

  it("lays out the documented fields byte for byte and omits p when unbound", () => {
    const times = Buffer.alloc(16);
    times.writeDoubleBE(T0_MS, 0);
    times.writeDoubleBE(T0_MS + 600_000, 8);
    const expected = Buffer.concat([
      Buffer.from([REQUEST_STATE_ENVELOPE_VERSION, 0b001]),
      times,
      field(Buffer.from("tools/call")),
      field(Buffer.from("provision")),
      field(Buffer.from(argumentsDigest({ name: "orders" }))),
      field(Buffer.from("Provisioner")),
      Buffer.from("round-1"),
    ]);
    expect(Buffer.from(encodeClaims(claims())).equals(expected)).toBe(true);
    expect(envelopeFields(encodeClaims(claims()))).toEqual({
      v: 2,
      iat: T0_MS,
      exp: T0_MS + 600_000,
      m: "tools/call",
      t: "provision",
      a: argumentsDigest({ name: "orders" }),
      s: "round-1",
      aud: "Provisioner",
    });
  });

  it("omits aud when there is no audience and carries p when bound", () => {
    const p = principalClaim("alice");
    const payload = encodeClaims(claims({ audience: null, principalClaim: p }));
    expect(payload[1]).toBe(0b010);
    const fields = envelopeFields(payload);
    expect(Object.keys(fields)).toEqual(["v", "iat", "exp", "m", "t", "a", "s", "p"]);
    expect(fields.p).toBe(p);
  });

  it("opens what it encoded, lone surrogates in the state included", () => {
    expect(checkClaims(encodeClaims(claims()), expectation)).toBe("round-1");
    const odd = "half \uD800 pair \uDFFF end";
    expect(checkClaims(encodeClaims(claims({ state: odd })), expectation)).toBe(odd);
  });

  it("keeps every spelling of a target or audience apart, lone surrogates and U+FFFD included", () => {
    const spellings = [
      "\uD800",
      "\uD801",
      "\uFFFD",
      "\uFFFD\uFFFD\uFFFD",
      "\uD83D\uDE00",
      "é",
      "Ã©",
      "Ã\x83Â©",
      "",
    ];
    for (const sealed of spellings) {
      for (const opened of spellings) {
        const bindingFor = (target: string) => ({ ...BINDING, target });
        const payload = encodeClaims(claims({ binding: bindingFor(sealed), audience: sealed }));
        const asTarget = () =>
          checkClaims(payload, { ...expectation, binding: bindingFor(opened), audience: sealed });
        const asAudience = () =>
          checkClaims(payload, { ...expectation, binding: bindingFor(sealed), audience: opened });
        if (sealed === opened) {
          expect(asTarget()).toBe("round-1");
          expect(asAudience()).toBe("round-1");
        } else {
          expect(reasonOf(asTarget)).toBe("request binding");
          expect(reasonOf(asAudience)).toBe("audience");
        }
      }
    }
  });

  it("round-trips states of any text, byte for byte (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), (state, target) => {
        const binding = { ...BINDING, target };
        const payload = encodeClaims(claims({ state, binding }));
        expect(checkClaims(payload, { ...expectation, binding })).toBe(state);
      }),
      { numRuns: 300 },
    );
  });

  it("refuses authenticated bytes that are not a claims envelope", () => {
    const valid = Buffer.from(encodeClaims(claims({ state: "round-1" })));
    const stateStart = valid.length - "round-1".length;
    const json = (state: string) =>
      Buffer.from(encodeClaims(claims({ state: "\uD800" })))
        .subarray(0, stateStart)
        .toString("latin1") + state;
    const cases: Uint8Array[] = [
      new Uint8Array(0),
      Buffer.from("not an envelope"),
      // the JSON envelope of version 1
      Buffer.from(
        JSON.stringify({
          v: 1,
          iat: T0_MS,
          exp: T0_MS + 600_000,
          m: "tools/call",
          t: "provision",
          a: BINDING.argumentsDigest,
          s: "round-1",
          aud: "Provisioner",
        }),
      ),
      // any other version byte
      edited(valid, (bytes) => {
        bytes[0] = 1;
      }),
      edited(valid, (bytes) => {
        bytes[0] = 3;
      }),
      edited(valid, (bytes) => {
        bytes[0] = 0xff;
      }),
      // an unknown flag
      edited(valid, (bytes) => {
        bytes[1] = bytes[1]! | 0b1000;
      }),
      edited(valid, (bytes) => {
        bytes[1] = bytes[1]! | 0x80;
      }),
      // a field running past the end
      edited(valid, (bytes) => {
        bytes.writeUInt32BE(0xffffffff, 18);
      }),
      // a state that is not UTF-8 (a lossy decoder would read U+FFFD), or holds a stray continuation byte
      Buffer.concat([valid, Buffer.from([0xff])]),
      Buffer.concat([valid.subarray(0, stateStart), Buffer.from([0x80]), valid.subarray(stateStart)]),
      // a byte order mark before the envelope
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), valid]),
      // a JSON state (flag 4) that is not one JSON string
      Buffer.from(json("not json"), "latin1"),
      Buffer.from(json("42"), "latin1"),
      Buffer.from(json('"a" "b"'), "latin1"),
      // every cut inside the header and the fields
      ...Array.from({ length: stateStart }, (_, length) => valid.subarray(0, length)),
    ];
    for (const payload of cases) expect(reasonOf(() => checkClaims(payload, expectation))).toBe("malformed");
    // A cut inside the state leaves a shorter state: the codec's tag, not the envelope, refuses that.
    expect(checkClaims(valid.subarray(0, stateStart), expectation)).toBe("");
  });

  it("refuses a state at or after its expiry and accepts it just before", () => {
    const payload = encodeClaims(claims());
    expect(checkClaims(payload, { ...expectation, nowMs: T0_MS + 599_999 })).toBe("round-1");
    expect(reasonOf(() => checkClaims(payload, { ...expectation, nowMs: T0_MS + 600_000 }))).toBe("expired");
  });

  it("refuses a state minted more than sixty seconds ahead and accepts one within the skew", () => {
    const ahead = (ms: number) =>
      encodeClaims(claims({ issuedAtMs: T0_MS + ms, expiresAtMs: T0_MS + ms + 600_000 }));
    expect(checkClaims(ahead(60_000), expectation)).toBe("round-1");
    expect(reasonOf(() => checkClaims(ahead(60_001), expectation))).toBe("minted in the future");
  });

  it("refuses times that are not numbers (NaN)", () => {
    const payload = encodeClaims(claims());
    const nanAt = (offset: number) =>
      edited(payload, (bytes) => {
        bytes.writeDoubleBE(Number.NaN, offset);
      });
    expect(reasonOf(() => checkClaims(nanAt(2), expectation))).toBe("minted in the future");
    expect(reasonOf(() => checkClaims(nanAt(10), expectation))).toBe("expired");
  });

  it("refuses another method, target or arguments as request binding", () => {
    const payload = encodeClaims(claims());
    const others = [
      requestBinding("prompts/get", { name: "provision", arguments: { name: "orders" } }),
      requestBinding("tools/call", { name: "deprovision", arguments: { name: "orders" } }),
      requestBinding("tools/call", { name: "provision", arguments: { name: "users" } }),
    ];
    for (const binding of others) {
      expect(reasonOf(() => checkClaims(payload, { ...expectation, binding }))).toBe("request binding");
    }
  });

  it("refuses audience drift in both directions", () => {
    expect(reasonOf(() => checkClaims(encodeClaims(claims()), { ...expectation, audience: "Other" }))).toBe(
      "audience",
    );
    expect(reasonOf(() => checkClaims(encodeClaims(claims()), { ...expectation, audience: null }))).toBe(
      "audience",
    );
    expect(
      reasonOf(() =>
        checkClaims(encodeClaims(claims({ audience: null })), { ...expectation, audience: "X" }),
      ),
    ).toBe("audience");
    expect(checkClaims(encodeClaims(claims({ audience: null })), { ...expectation, audience: null })).toBe(
      "round-1",
    );
  });

  it("refuses principal drift both ways and a different or forged principal", () => {
    const bound = encodeClaims(claims({ principalClaim: principalClaim("alice") }));
    const as = (principal: string | undefined) => ({ ...expectation, principal: () => principal });
    expect(checkClaims(bound, as("alice"))).toBe("round-1");
    expect(reasonOf(() => checkClaims(bound, as(undefined)))).toBe("principal drift");
    expect(reasonOf(() => checkClaims(encodeClaims(claims()), as("alice")))).toBe("principal drift");
    expect(reasonOf(() => checkClaims(bound, as("bob")))).toBe("principal");
    expect(
      reasonOf(() => checkClaims(encodeClaims(claims({ principalClaim: "not base64!" })), as("alice"))),
    ).toBe("principal");
    const at = Buffer.from(bound).indexOf(Buffer.from(envelopeFields(bound).p as string));
    const notText = edited(bound, (bytes) => {
      bytes[at] = 0xff;
    });
    expect(reasonOf(() => checkClaims(notText, as("alice")))).toBe("principal");
  });

  it("asks for the principal only after every other claim passed", () => {
    let asked = 0;
    const principal = () => {
      asked++;
      return undefined;
    };
    reasonOf(() => checkClaims(encodeClaims(claims()), { ...expectation, audience: "Other", principal }));
    expect(asked).toBe(0);
    checkClaims(encodeClaims(claims()), { ...expectation, principal });
    expect(asked).toBe(1);
  });
});

describe("the arguments digest", () => {
  it("ignores key order at every depth", () => {
    expect(argumentsDigest({ a: 1, b: { c: [1, { d: 2, e: 3 }], f: "x" } })).toBe(
      argumentsDigest({ b: { f: "x", c: [1, { e: 3, d: 2 }] }, a: 1 }),
    );
  });

  it("treats omitted, null and empty arguments alike, and other arguments differently", () => {
    expect(argumentsDigest(undefined)).toBe(argumentsDigest({}));
    expect(argumentsDigest(null)).toBe(argumentsDigest({}));
    expect(argumentsDigest({ name: "orders" })).not.toBe(argumentsDigest({ name: "users" }));
    expect(argumentsDigest({ n: 1 })).not.toBe(argumentsDigest({ n: "1" }));
    expect(argumentsDigest([1, 2])).not.toBe(argumentsDigest([2, 1]));
  });

  it("is 16 bytes of SHA-256, base64url", () => {
    expect(argumentsDigest({})).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it("digests lone-surrogate arguments without crashing and keeps different surrogates apart", () => {
    expect(argumentsDigest({ text: "\uD800" })).not.toBe(argumentsDigest({ text: "\uD801" }));
    expect(argumentsDigest({ text: "\uD800" })).not.toBe(argumentsDigest({ text: "\uFFFD" }));
    expect(argumentsDigest({ "\uDC00": 1 })).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it("serialises canonically: sorted keys, no whitespace, JSON value rules", () => {
    expect(canonicalJson({ b: [1, undefined, "x"], a: { d: null, c: true }, u: undefined })).toBe(
      '{"a":{"c":true,"d":null},"b":[1,null,"x"]}',
    );
    expect(canonicalJson({ 10: "a", 2: "b", z: 1, Z: 2 })).toBe('{"10":"a","2":"b","Z":2,"z":1}');
    expect(canonicalJson(Number.NaN)).toBe("null");
    expect(() => canonicalJson({ big: 1n })).toThrow(TypeError);
  });

  it("depends only on content, never on key insertion order (property)", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: "binary" }), fc.jsonValue()), (args) => {
        const reversed = Object.fromEntries(Object.entries(args).reverse());
        expect(argumentsDigest(reversed)).toBe(argumentsDigest(args));
        expect(JSON.parse(canonicalJson(args))).toEqual(JSON.parse(JSON.stringify(args)));
      }),
      { numRuns: 300 },
    );
  });
});

describe("the request binding", () => {
  it("binds tools and prompts by name and arguments, never by _meta or other fields", () => {
    const base = requestBinding("tools/call", { name: "provision", arguments: { name: "orders" } });
    expect(base).toEqual({
      method: "tools/call",
      target: "provision",
      argumentsDigest: argumentsDigest({ name: "orders" }),
    });
    expect(
      requestBinding("tools/call", {
        name: "provision",
        arguments: { name: "orders" },
        _meta: { progressToken: 7 },
        inputResponses: { region: {} },
        requestState: "x",
      }),
    ).toEqual(base);
  });

  it("binds resources by URI with empty arguments", () => {
    expect(requestBinding("resources/read", { uri: "notes://1", arguments: { x: 1 } })).toEqual({
      method: "resources/read",
      target: "notes://1",
      argumentsDigest: argumentsDigest({}),
    });
  });

  it("uses an empty target when the name or URI is missing", () => {
    expect(requestBinding("prompts/get", {}).target).toBe("");
    expect(requestBinding("resources/read", {}).target).toBe("");
  });
});

describe("the state id of a single-use state", () => {
  it("rides the envelope after the principal claim under flag 8, and opens with the expiry", () => {
    const bound = claims({ principalClaim: principalClaim("alice"), stateId: "id-0123456789abcdefghij" });
    const payload = encodeClaims(bound);
    expect(payload[1]).toBe(1 | 2 | 8);
    expect(openClaims(payload, { ...expectation, principal: () => "alice" })).toEqual({
      state: "round-1",
      stateId: "id-0123456789abcdefghij",
      expiresAtMs: T0_MS + 600_000,
    });
    expect(checkClaims(payload, { ...expectation, principal: () => "alice" })).toBe("round-1");
  });

  it("is absent, and the envelope unchanged, when none was minted", () => {
    const payload = encodeClaims(claims());
    expect(payload[1]).toBe(1);
    expect(openClaims(payload, expectation).stateId).toBeUndefined();
  });

  it("makes an envelope whose id field runs past the end malformed", () => {
    const payload = encodeClaims(claims({ stateId: "abc" }));
    expect(
      reasonOf(() => openClaims(payload.subarray(0, payload.length - "round-1".length - 1), expectation)),
    ).toBe("malformed");
  });
});
