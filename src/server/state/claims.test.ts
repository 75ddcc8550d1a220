import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  argumentsDigest,
  canonicalJson,
  checkClaims,
  encodeClaims,
  REQUEST_STATE_ENVELOPE_VERSION,
  REQUEST_STATE_FUTURE_SKEW_MS,
  type RequestBinding,
  type RequestStateClaims,
  requestBinding,
} from "./claims.js";
import { InvalidRequestState } from "./errors.js";
import { principalClaim } from "./principal.js";
import { T0_MS } from "./state-test-fixtures.js";

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

/** `payload` with `byte` inserted right after the opening quote of the state `"s":"`. */
function withByteInState(payload: Uint8Array, byte: number): Uint8Array {
  const at = Buffer.from(payload).indexOf('"s":"') + 5;
  return new Uint8Array([...payload.subarray(0, at), byte, ...payload.subarray(at)]);
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
    expect(REQUEST_STATE_ENVELOPE_VERSION).toBe(1);
    expect(REQUEST_STATE_FUTURE_SKEW_MS).toBe(60_000);
  });

  it("carries the documented fields in order and omits p when unbound", () => {
    const json = JSON.parse(Buffer.from(encodeClaims(claims())).toString("utf8"));
    expect(Object.keys(json)).toEqual(["v", "iat", "exp", "m", "t", "a", "s", "aud"]);
    expect(json).toEqual({
      v: 1,
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
    const json = JSON.parse(
      Buffer.from(
        encodeClaims(claims({ audience: null, principalClaim: principalClaim("alice") })),
      ).toString(),
    );
    expect(Object.keys(json)).toEqual(["v", "iat", "exp", "m", "t", "a", "s", "p"]);
  });

  it("opens what it encoded, lone surrogates in the state included", () => {
    expect(checkClaims(encodeClaims(claims()), expectation)).toBe("round-1");
    const odd = "half \uD800 pair \uDFFF end";
    expect(checkClaims(encodeClaims(claims({ state: odd })), expectation)).toBe(odd);
  });

  it("refuses authenticated bytes that are not a claims envelope", () => {
    const bytes = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value));
    const valid = JSON.parse(Buffer.from(encodeClaims(claims())).toString());
    const without = (key: string) => Object.fromEntries(Object.entries(valid).filter(([k]) => k !== key));
    const cases: Uint8Array[] = [
      bytes("not json"),
      bytes("[1,2]"),
      bytes("null"),
      bytes('"round-1"'),
      new Uint8Array([0xff, 0xfe, 0x7b, 0x7d]),
      bytes({ ...valid, v: 2 }),
      bytes({ ...valid, v: "1" }),
      bytes({ ...valid, s: 42 }),
      bytes(without("v")),
      bytes(without("iat")),
      bytes(without("exp")),
      bytes(without("s")),
      // JSON whose state string holds a byte that is not UTF-8 (a lossy decoder would read U+FFFD)
      withByteInState(bytes(valid), 0xff),
      // a byte order mark before the envelope
      new Uint8Array([0xef, 0xbb, 0xbf, ...bytes(valid)]),
    ];
    for (const payload of cases) expect(reasonOf(() => checkClaims(payload, expectation))).toBe("malformed");
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

  it("refuses non-numeric times", () => {
    const valid = JSON.parse(Buffer.from(encodeClaims(claims())).toString());
    const bytes = (value: unknown) => Buffer.from(JSON.stringify(value));
    expect(reasonOf(() => checkClaims(bytes({ ...valid, iat: "0" }), expectation))).toBe(
      "minted in the future",
    );
    expect(reasonOf(() => checkClaims(bytes({ ...valid, exp: null }), expectation))).toBe("expired");
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
    const valid = JSON.parse(Buffer.from(bound).toString());
    expect(
      reasonOf(() => checkClaims(Buffer.from(JSON.stringify({ ...valid, p: "not base64!" })), as("alice"))),
    ).toBe("principal");
    expect(reasonOf(() => checkClaims(Buffer.from(JSON.stringify({ ...valid, p: 42 })), as("alice")))).toBe(
      "principal",
    );
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
