import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CarriedTrace } from "../request-trace.js";
import { CARRIED_TRACE_BYTES, isCarriable, isCarriableRound, isCarriableTrace } from "./carried-trace.js";
import {
  argumentsDigest,
  checkClaims,
  encodeClaims,
  openClaims,
  REQUEST_STATE_ENVELOPE_VERSION,
  type RequestStateClaims,
  requestBinding,
} from "./claims.js";
import { InvalidRequestState } from "./errors.js";
import { principalClaim } from "./principal.js";
import { T0_MS } from "./state-test-fixtures.js";

const BINDING = requestBinding("tools/call", { name: "provision", arguments: { name: "orders" } });

const TRACE: CarriedTrace = {
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  spanId: "00f067aa0ba902b7",
  traceFlags: 1,
  round: 2,
};

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

const expectation = {
  nowMs: T0_MS,
  binding: BINDING,
  audience: "Provisioner" as string | null,
  principal: (): string | undefined => undefined,
};

function field(text: string): Buffer {
  const bytes = Buffer.from(text);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
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

/** Where the carried-trace block starts in an envelope of `claims()` with the trace. */
const TRACE_START = encodeClaims(claims({ trace: TRACE })).length - "round-1".length - CARRIED_TRACE_BYTES;

describe("the carried trace in the claims envelope", () => {
  it("rides under flag 16 as 29 bytes between the text fields and the state, in the same envelope version", () => {
    const times = Buffer.alloc(16);
    times.writeDoubleBE(T0_MS, 0);
    times.writeDoubleBE(T0_MS + 600_000, 8);
    const round = Buffer.alloc(4);
    round.writeUInt32BE(2);
    const expected = Buffer.concat([
      Buffer.from([REQUEST_STATE_ENVELOPE_VERSION, 1 | 16]),
      times,
      field("tools/call"),
      field("provision"),
      field(argumentsDigest({ name: "orders" })),
      field("Provisioner"),
      Buffer.from(TRACE.traceId, "hex"),
      Buffer.from(TRACE.spanId, "hex"),
      Buffer.from([1]),
      round,
      Buffer.from("round-1"),
    ]);
    const payload = Buffer.from(encodeClaims(claims({ trace: TRACE })));
    expect(REQUEST_STATE_ENVELOPE_VERSION).toBe(2);
    expect(payload.toString("hex")).toBe(expected.toString("hex"));
    expect(openClaims(payload, expectation)).toEqual({
      state: "round-1",
      stateId: undefined,
      expiresAtMs: T0_MS + 600_000,
      trace: TRACE,
    });
  });

  it("leaves an envelope without it byte for byte unchanged, and opens it with no trace", () => {
    const without = Buffer.from(encodeClaims(claims()));
    expect(without[1]).toBe(1);
    expect(Buffer.from(encodeClaims(claims({ trace: undefined }))).equals(without)).toBe(true);
    // The same bytes minus the block and the flag.
    const withTrace = Buffer.from(encodeClaims(claims({ trace: TRACE })));
    const stripped = Buffer.concat([
      withTrace.subarray(0, TRACE_START),
      withTrace.subarray(TRACE_START + CARRIED_TRACE_BYTES),
    ]);
    stripped[1] = 1;
    expect(stripped.equals(without)).toBe(true);
    expect(openClaims(without, expectation).trace).toBeUndefined();
  });

  it("sits after the state id and before a JSON state, every flag together", () => {
    const all = claims({
      principalClaim: principalClaim("alice"),
      stateId: "id-0123456789abcdefghij",
      state: "half \uD800",
      trace: TRACE,
    });
    const payload = encodeClaims(all);
    expect(payload[1]).toBe(1 | 2 | 4 | 8 | 16);
    expect(openClaims(payload, { ...expectation, principal: () => "alice" })).toEqual({
      state: "half \uD800",
      stateId: "id-0123456789abcdefghij",
      expiresAtMs: T0_MS + 600_000,
      trace: TRACE,
    });
  });

  it("round-trips any valid trace beside any state (property)", () => {
    const hex = (bytes: number) =>
      fc
        .uint8Array({ minLength: bytes, maxLength: bytes })
        .filter((value) => value.some((byte) => byte !== 0))
        .map((value) => Buffer.from(value).toString("hex"));
    fc.assert(
      fc.property(
        fc.record({
          traceId: hex(16),
          spanId: hex(8),
          traceFlags: fc.integer({ min: 0, max: 255 }),
          round: fc.integer({ min: 1, max: 0xffff_ffff }),
        }),
        fc.string({ unit: "binary" }),
        fc.boolean(),
        (trace, state, withAudience) => {
          const payload = encodeClaims(
            claims({ trace, state, audience: withAudience ? "Provisioner" : null }),
          );
          const opened = openClaims(payload, {
            ...expectation,
            audience: withAudience ? "Provisioner" : null,
          });
          expect(opened.trace).toEqual(trace);
          expect(opened.state).toBe(state);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("makes an envelope malformed whose block is cut short, has an all-zero id or round 0", () => {
    const valid = Buffer.from(encodeClaims(claims({ trace: TRACE, state: "" })));
    const edited = (edit: (bytes: Buffer) => void): Buffer => {
      const bytes = Buffer.from(valid);
      edit(bytes);
      return bytes;
    };
    const cases = [
      ...Array.from({ length: CARRIED_TRACE_BYTES }, (_, cut) => valid.subarray(0, TRACE_START + cut)),
      edited((bytes) => bytes.fill(0, TRACE_START, TRACE_START + 16)),
      edited((bytes) => bytes.fill(0, TRACE_START + 16, TRACE_START + 24)),
      edited((bytes) => bytes.fill(0, TRACE_START + 25, TRACE_START + 29)),
      // flag 16 on an envelope too short to hold the block
      (() => {
        const bytes = Buffer.from(encodeClaims(claims()));
        bytes[1] = bytes[1]! | 16;
        return bytes;
      })(),
    ];
    for (const payload of cases) expect(reasonOf(() => checkClaims(payload, expectation))).toBe("malformed");
    expect(checkClaims(valid, expectation)).toBe("");
  });

  it("refuses to encode a trace it could not read back", () => {
    const bad: unknown[] = [
      { ...TRACE, traceId: "0".repeat(32) },
      { ...TRACE, traceId: TRACE.traceId.toUpperCase() },
      { ...TRACE, traceId: TRACE.traceId.slice(1) },
      { ...TRACE, spanId: "0".repeat(16) },
      { ...TRACE, spanId: "zz".repeat(8) },
      { ...TRACE, traceFlags: 256 },
      { ...TRACE, traceFlags: -1 },
      { ...TRACE, traceFlags: 1.5 },
      { ...TRACE, round: 0 },
      { ...TRACE, round: 2 ** 32 },
      { ...TRACE, round: Number.NaN },
      { ...TRACE, round: "2" },
      null,
      "trace",
    ];
    for (const trace of bad) {
      expect(isCarriableTrace(trace)).toBe(false);
      expect(() => encodeClaims(claims({ trace: trace as CarriedTrace }))).toThrow(TypeError);
    }
    expect(isCarriableTrace(TRACE)).toBe(true);
    expect(isCarriableTrace({ ...TRACE, traceFlags: 0, round: 2 ** 32 - 1 })).toBe(true);
  });
});

describe("the carried round alone in the claims envelope", () => {
  it("rides under flag 32 as 4 bytes where the trace block would be, and opens as the round alone", () => {
    const withRound = Buffer.from(encodeClaims(claims({ trace: { round: 3 } })));
    const without = Buffer.from(encodeClaims(claims()));
    expect(withRound[1]).toBe(1 | 32);
    const start = without.length - "round-1".length;
    const round = Buffer.alloc(4);
    round.writeUInt32BE(3);
    const expected = Buffer.concat([without.subarray(0, start), round, without.subarray(start)]);
    expected[1] = 1 | 32;
    expect(withRound.toString("hex")).toBe(expected.toString("hex"));
    expect(openClaims(withRound, expectation).trace).toEqual({ round: 3 });
  });

  it("makes an envelope malformed with flags 16 and 32 together, a round 0, or a block cut short", () => {
    const valid = Buffer.from(encodeClaims(claims({ trace: { round: 2 }, state: "" })));
    const both = Buffer.from(encodeClaims(claims({ trace: TRACE })));
    both[1] = both[1]! | 32;
    const zero = Buffer.from(valid);
    zero.fill(0, valid.length - 4);
    const cases = [both, zero, valid.subarray(0, valid.length - 1), valid.subarray(0, valid.length - 3)];
    for (const payload of cases) expect(reasonOf(() => checkClaims(payload, expectation))).toBe("malformed");
    expect(checkClaims(valid, expectation)).toBe("");
  });

  it("refuses to encode a round it could not read back", () => {
    for (const round of [0, -1, 1.5, 2 ** 32, Number.NaN, "2"]) {
      expect(isCarriableRound({ round })).toBe(false);
      expect(isCarriable({ round })).toBe(false);
      expect(() => encodeClaims(claims({ trace: { round } as CarriedTrace }))).toThrow(TypeError);
    }
    expect(isCarriableRound(TRACE)).toBe(false);
    expect(isCarriable(TRACE)).toBe(true);
    expect(isCarriable({ round: 2 ** 32 - 1 })).toBe(true);
  });
});
