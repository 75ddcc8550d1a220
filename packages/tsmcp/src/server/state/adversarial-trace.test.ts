import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CarriedTrace } from "../request-trace.js";
import { encodeBase64Url } from "./base64url.js";
import { CARRIED_TRACE_BYTES } from "./carried-trace.js";
import { requestBinding } from "./claims.js";
import { InvalidRequestState } from "./errors.js";
import { RequestStateSecurity } from "./policy.js";
import { openRequestStateClaims, type RequestStateScope, sealRequestState } from "./sealing.js";
import { KEY_A, KEY_B, ManualClock } from "./state-test-fixtures.js";

const TRACE: CarriedTrace = {
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  spanId: "00f067aa0ba902b7",
  traceFlags: 1,
  round: 1,
};
const SCOPE: RequestStateScope = {
  binding: requestBinding("tools/call", { name: "provision", arguments: { name: "orders" } }),
  audience: "Provisioner",
  principal: () => undefined,
};
/** Bytes before the ciphertext in a built-in token's body: key id and nonce. */
const CIPHERTEXT_START = 4 + 12;
const STATE = "step-1";

function policy(keys = [KEY_A]) {
  return new RequestStateSecurity({ keys, clock: new ManualClock() });
}

function reasonOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (error instanceof InvalidRequestState) return error.reason;
    throw error;
  }
  throw new Error("expected InvalidRequestState, but the token opened");
}

/** `token` with `mask` XORed into byte `index` of its body. */
function flipped(token: string, index: number, mask: number): string {
  const body = Buffer.from(token.slice(3), "base64url");
  body[index] = body[index]! ^ mask;
  return `v1.${encodeBase64Url(body)}`;
}

describe("a token carrying a trace", () => {
  it("is refused for every bit flipped in the ciphertext of its trace block, and for any byte flipped anywhere", () => {
    const target = policy();
    const token = sealRequestState(target, STATE, { ...SCOPE, trace: TRACE });
    expect(openRequestStateClaims(target, token, SCOPE).trace).toEqual(TRACE);
    const body = Buffer.from(token.slice(3), "base64url");
    // The plaintext ends with the trace block, then the state; AES-GCM keeps plaintext offsets.
    const traceStart = body.length - 16 - STATE.length - CARRIED_TRACE_BYTES;
    expect(traceStart).toBeGreaterThan(CIPHERTEXT_START);
    for (let index = traceStart; index < traceStart + CARRIED_TRACE_BYTES; index++) {
      for (let bit = 0; bit < 8; bit++) {
        expect(reasonOf(() => openRequestStateClaims(target, flipped(token, index, 1 << bit), SCOPE))).toBe(
          "seal",
        );
      }
    }
    for (let index = 0; index < body.length; index++) {
      expect(reasonOf(() => openRequestStateClaims(target, flipped(token, index, 0xff), SCOPE))).toMatch(
        /^(seal|unknown key)$/,
      );
    }
  });

  it("cannot be moved into another call's trace: it opens only for its own request, audience and key ring", () => {
    const target = policy();
    const token = sealRequestState(target, STATE, { ...SCOPE, trace: TRACE });
    const otherCall = {
      ...SCOPE,
      binding: requestBinding("tools/call", { name: "provision", arguments: { name: "billing" } }),
    };
    expect(reasonOf(() => openRequestStateClaims(target, token, otherCall))).toBe("request binding");
    expect(reasonOf(() => openRequestStateClaims(target, token, { ...SCOPE, audience: "Billing" }))).toBe(
      "audience",
    );
    expect(reasonOf(() => openRequestStateClaims(policy([KEY_B]), token, SCOPE))).toBe("unknown key");
  });

  it("opens with exactly its trace, and refuses any single byte changed (property)", () => {
    const target = policy();
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
        fc.string({ unit: "binary", maxLength: 40 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (trace, state, where, mask) => {
          const token = sealRequestState(target, state, { ...SCOPE, trace });
          const opened = openRequestStateClaims(target, token, SCOPE);
          expect(opened.trace).toEqual(trace);
          expect(opened.state).toBe(state);
          const length = Buffer.from(token.slice(3), "base64url").length;
          expect(() => openRequestStateClaims(target, flipped(token, where % length, mask), SCOPE)).toThrow(
            InvalidRequestState,
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
