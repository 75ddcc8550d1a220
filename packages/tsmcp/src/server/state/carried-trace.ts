/**
 * The trace context a sealed `requestState` carries from a multi round-trip call's first leg to its
 * next legs, as a fixed-size block of the claims envelope; or, when the first leg had no valid span
 * context (a server recording metrics only), the round alone, as a 4-byte block. It rides inside the authenticated
 * encryption like every other claim, so a client can neither read a forged one into a server's
 * trace nor move one to another call (the envelope is bound to the request, audience and principal).
 * Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/ §Context propagation;
 * basic/patterns/mrtr §Server Requirements (Basic Workflow).
 *
 * Layout (29 bytes, big-endian):
 *
 * | bytes | field                                               |
 * | ----- | --------------------------------------------------- |
 * | 16    | trace id (not all zero)                             |
 * | 8     | span id (not all zero)                              |
 * | 1     | trace flags                                         |
 * | 4     | round, an unsigned 32-bit integer of at least 1     |
 *
 * The round alone (4 bytes): the round, as above.
 */
import type { Carried, CarriedRound, CarriedTrace } from "../request-trace.js";

/** Bytes of the carried-trace block. */
export const CARRIED_TRACE_BYTES = 29;

/** Bytes of the carried-round block (the round alone). */
export const CARRIED_ROUND_BYTES = 4;

const TRACE_ID_BYTES = 16;
const SPAN_ID_BYTES = 8;
const FLAGS_OFFSET = TRACE_ID_BYTES + SPAN_ID_BYTES;
const ROUND_OFFSET = FLAGS_OFFSET + 1;
const MAX_ROUND = 0xffff_ffff;
const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;
const ZERO_TRACE_ID = "0".repeat(32);
const ZERO_SPAN_ID = "0".repeat(16);

/**
 * True when `value` is a {@link CarriedTrace} the envelope can carry: a valid (lowercase hex, not
 * all zero) trace id and span id, trace flags 0-255, and an integer round from 1 to 2^32 - 1.
 */
export function isCarriableTrace(value: unknown): value is CarriedTrace {
  if (typeof value !== "object" || value === null) return false;
  const { traceId, spanId, traceFlags, round } = value as Partial<Record<keyof CarriedTrace, unknown>>;
  return (
    typeof traceId === "string" &&
    TRACE_ID.test(traceId) &&
    traceId !== ZERO_TRACE_ID &&
    typeof spanId === "string" &&
    SPAN_ID.test(spanId) &&
    spanId !== ZERO_SPAN_ID &&
    Number.isInteger(traceFlags) &&
    (traceFlags as number) >= 0 &&
    (traceFlags as number) <= 0xff &&
    isRound(round)
  );
}

function isRound(round: unknown): boolean {
  return Number.isInteger(round) && (round as number) >= 1 && (round as number) <= MAX_ROUND;
}

/** True when `value` is a {@link CarriedRound} the envelope can carry: no trace id, a round from 1 to 2^32 - 1. */
export function isCarriableRound(value: unknown): value is CarriedRound {
  if (typeof value !== "object" || value === null) return false;
  const { traceId, round } = value as { traceId?: unknown; round?: unknown };
  return traceId === undefined && isRound(round);
}

/** True when `value` is what the envelope can carry: {@link isCarriableTrace} or {@link isCarriableRound}. */
export function isCarriable(value: unknown): value is Carried {
  return isCarriableTrace(value) || isCarriableRound(value);
}

/**
 * Writes the round of `carried` at `offset` of `out` ({@link CARRIED_ROUND_BYTES} bytes).
 *
 * @throws TypeError when `carried` is not {@link isCarriableRound}.
 */
export function writeCarriedRound(carried: CarriedRound, out: Buffer, offset: number): void {
  if (!isCarriableRound(carried)) throw new TypeError("a carried round needs a round from 1 to 2^32 - 1");
  out.writeUInt32BE(carried.round, offset);
}

/** Reads the round block at `offset` of `bytes`, or `undefined` for round 0 (never written). */
export function readCarriedRound(bytes: Buffer, offset: number): CarriedRound | undefined {
  const round = bytes.readUInt32BE(offset);
  return round === 0 ? undefined : { round };
}

/**
 * Writes `trace` at `offset` of `out` ({@link CARRIED_TRACE_BYTES} bytes).
 *
 * @throws TypeError when `trace` is not {@link isCarriableTrace}.
 */
export function writeCarriedTrace(trace: CarriedTrace, out: Buffer, offset: number): void {
  if (!isCarriableTrace(trace)) throw new TypeError("a carried trace needs valid ids, flags and round");
  out.write(trace.traceId, offset, TRACE_ID_BYTES, "hex");
  out.write(trace.spanId, offset + TRACE_ID_BYTES, SPAN_ID_BYTES, "hex");
  out[offset + FLAGS_OFFSET] = trace.traceFlags;
  out.writeUInt32BE(trace.round, offset + ROUND_OFFSET);
}

/**
 * Reads the block at `offset` of `bytes` (which must hold {@link CARRIED_TRACE_BYTES} bytes there),
 * or `undefined` when it is not one {@link writeCarriedTrace} writes (an all-zero id, round 0).
 */
export function readCarriedTrace(bytes: Buffer, offset: number): CarriedTrace | undefined {
  const traceId = bytes.toString("hex", offset, offset + TRACE_ID_BYTES);
  const spanId = bytes.toString("hex", offset + TRACE_ID_BYTES, offset + FLAGS_OFFSET);
  const round = bytes.readUInt32BE(offset + ROUND_OFFSET);
  if (traceId === ZERO_TRACE_ID || spanId === ZERO_SPAN_ID || round === 0) return undefined;
  return { traceId, spanId, traceFlags: bytes[offset + FLAGS_OFFSET]!, round };
}
