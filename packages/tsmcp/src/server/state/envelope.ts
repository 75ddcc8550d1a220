/**
 * The claims envelope's wire form: a compact binary header followed by the plaintext state, with
 * no text encoding of the state beyond its UTF-8 bytes. Building it, and reading it back
 * strictly (any deviation from what `encodeClaims` writes is "malformed").
 * Spec: basic/patterns/mrtr §Server Requirements (Basic Workflow).
 *
 * Layout (integers and times big-endian):
 *
 * | bytes    | field                                                                    |
 * | -------- | ------------------------------------------------------------------------ |
 * | 1        | envelope version, {@link REQUEST_STATE_ENVELOPE_VERSION}                 |
 * | 1        | flags: 1 = audience, 2 = principal claim, 4 = JSON state, 8 = state id,  |
 * |          | 16 = carried trace, 32 = carried round (never both)                      |
 * | 8        | `iat`, milliseconds since the epoch, IEEE 754 double                     |
 * | 8        | `exp`, milliseconds since the epoch, IEEE 754 double                     |
 * | 4 + n    | method, then target, then arguments digest: a 32-bit length, the bytes   |
 * | 4 + n    | audience (flag 1), principal claim (flag 2), state id (flag 8), in order |
 * | 29       | the carried trace (flag 16), laid out as `carried-trace.ts` says         |
 * | 4        | or the carried round alone (flag 32), likewise                           |
 * | the rest | the plaintext state, UTF-8                                               |
 *
 * Text fields are UTF-8, a lone surrogate encoded as its own three-byte form (so distinct strings
 * never share bytes; fields are compared as bytes). A state holding a lone surrogate, which UTF-8
 * cannot carry, is stored as its JSON string literal instead, under flag 4.
 *
 * Every flag is optional: an envelope without the carried trace or round is byte for byte what it
 * was before flags 16 and 32 existed, so states minted by either kind of server open on the other
 * as long as they carry neither.
 */
import type { Carried } from "../request-trace.js";
import {
  CARRIED_ROUND_BYTES,
  CARRIED_TRACE_BYTES,
  readCarriedRound,
  readCarriedTrace,
  writeCarriedRound,
  writeCarriedTrace,
} from "./carried-trace.js";
import type { RequestStateClaims } from "./claims-shape.js";
import { InvalidRequestState } from "./errors.js";
import { exactUtf8Bytes, isWellFormed } from "./exact-utf8.js";

/** The envelope version every sealed state carries in its first byte. */
export const REQUEST_STATE_ENVELOPE_VERSION = 2;

const FLAG_AUDIENCE = 1;
const FLAG_PRINCIPAL = 2;
const FLAG_JSON_STATE = 4;
const FLAG_STATE_ID = 8;
const FLAG_TRACE = 16;
const FLAG_ROUND = 32;
const KNOWN_FLAGS =
  FLAG_AUDIENCE | FLAG_PRINCIPAL | FLAG_JSON_STATE | FLAG_STATE_ID | FLAG_TRACE | FLAG_ROUND;
const HEADER_BYTES = 18;
const LENGTH_BYTES = 4;

/** Index of each text field in a read envelope. */
export const METHOD_FIELD = 0;
export const TARGET_FIELD = 1;
export const DIGEST_FIELD = 2;

/** A text field ready to write: ASCII text (one byte per character), or its exact bytes. */
type FieldText = string | Buffer;

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

function prepared(text: string): FieldText {
  return isAscii(text) ? text : exactUtf8Bytes(text);
}

/**
 * The envelope's bytes, in the layout above (a Node `Buffer`, declared as its `Uint8Array`).
 *
 * @throws TypeError when `claims.trace` is present but neither a valid carried trace nor a valid
 *   carried round.
 */
export function encodeClaims(claims: RequestStateClaims): Uint8Array {
  const { binding } = claims;
  const fields: FieldText[] = [
    prepared(binding.method),
    prepared(binding.target),
    prepared(binding.argumentsDigest),
  ];
  let flags = 0;
  if (claims.audience !== null) {
    flags |= FLAG_AUDIENCE;
    fields.push(prepared(claims.audience));
  }
  if (claims.principalClaim !== undefined) {
    flags |= FLAG_PRINCIPAL;
    fields.push(prepared(claims.principalClaim));
  }
  if (claims.stateId !== undefined) {
    flags |= FLAG_STATE_ID;
    fields.push(prepared(claims.stateId));
  }
  const { trace } = claims;
  const traceBytes =
    trace === undefined ? 0 : trace.traceId === undefined ? CARRIED_ROUND_BYTES : CARRIED_TRACE_BYTES;
  if (trace !== undefined) flags |= trace.traceId === undefined ? FLAG_ROUND : FLAG_TRACE;
  let { state } = claims;
  if (!isWellFormed(state)) {
    flags |= FLAG_JSON_STATE;
    state = JSON.stringify(state);
  }
  const stateBytes = Buffer.byteLength(state, "utf8");
  let total = HEADER_BYTES + stateBytes + traceBytes;
  for (const field of fields) total += LENGTH_BYTES + field.length;
  const out = Buffer.allocUnsafe(total);
  out[0] = REQUEST_STATE_ENVELOPE_VERSION;
  out[1] = flags;
  out.writeDoubleBE(claims.issuedAtMs, 2);
  out.writeDoubleBE(claims.expiresAtMs, 10);
  let offset = HEADER_BYTES;
  for (const field of fields) {
    const length = field.length;
    out.writeUInt32BE(length, offset);
    offset += LENGTH_BYTES;
    if (typeof field === "string") {
      for (let i = 0; i < length; i++) out[offset + i] = field.charCodeAt(i);
    } else {
      field.copy(out, offset);
    }
    offset += length;
  }
  if (trace !== undefined) {
    if (trace.traceId === undefined) writeCarriedRound(trace, out, offset);
    else writeCarriedTrace(trace, out, offset);
    offset += traceBytes;
  }
  out.write(state, offset, stateBytes, "utf8");
  return out;
}

/** An envelope read back: its times, where each field lies in its bytes, and the state. */
export class ReadEnvelope {
  /** `bytes` as a Node `Buffer` (the same memory), for its compare and Latin-1 reads. */
  readonly #buffer: Buffer;

  /**
   * @param bytes the envelope.
   * @param issuedAtMs `iat`.
   * @param expiresAtMs `exp`.
   * @param flags the flags byte.
   * @param bounds start and end of each text field, in order (method, target, digest, then the
   *   audience, the principal claim and the state id when present).
   * @param state the plaintext state.
   * @param trace the carried trace (flag 16) or round (flag 32), or `undefined`.
   */
  constructor(
    readonly bytes: Uint8Array,
    readonly issuedAtMs: number,
    readonly expiresAtMs: number,
    readonly flags: number,
    readonly bounds: readonly number[],
    readonly state: string,
    readonly trace: Carried | undefined,
  ) {
    this.#buffer = asBuffer(bytes);
  }

  /** Index of the audience field, or -1 when the envelope has none. */
  get audienceField(): number {
    return this.flags & FLAG_AUDIENCE ? 3 : -1;
  }

  /** Index of the principal claim field, or -1 when the envelope is not principal-bound. */
  get principalField(): number {
    if (!(this.flags & FLAG_PRINCIPAL)) return -1;
    return this.flags & FLAG_AUDIENCE ? 4 : 3;
  }

  /** Index of the state id field, or -1 when the envelope has none. */
  get stateIdField(): number {
    if (!(this.flags & FLAG_STATE_ID)) return -1;
    return this.bounds.length / 2 - 1;
  }

  /** True when field `index` holds exactly the bytes of `text` (see the module comment). */
  fieldEquals(index: number, text: string): boolean {
    const { bounds } = this;
    const bytes = this.#buffer;
    const start = bounds[2 * index]!;
    const length = bounds[2 * index + 1]! - start;
    if (length === text.length) {
      // Equal only as ASCII: any other character takes more than one byte.
      for (let i = 0; i < length; i++) {
        const unit = text.charCodeAt(i);
        if (unit > 0x7f || bytes[start + i] !== unit) return false;
      }
      return true;
    }
    const expected = exactUtf8Bytes(text);
    return expected.length === length && bytes.compare(expected, 0, length, start, start + length) === 0;
  }

  /** Field `index` read as Latin-1 text (one character per byte, so nothing is lost). */
  fieldLatin1(index: number): string {
    return this.#buffer.toString("latin1", this.bounds[2 * index], this.bounds[2 * index + 1]);
  }
}

const MALFORMED = "malformed";

/** `bytes` as a `Buffer` over the same memory (no copy). */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Strict UTF-8: invalid bytes throw instead of becoming U+FFFD, and a leading U+FEFF is kept. */
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Reads an envelope, checking its structure: known version and flags, every field inside the
 * bytes, a carried trace with valid ids and a round of at least 1 (flag 16) or a carried round of
 * at least 1 (flag 32, never with flag 16), and a state of strict
 * UTF-8 (a JSON string literal under flag 4).
 *
 * @throws InvalidRequestState with reason `"malformed"` for anything else.
 */
export function readEnvelope(payload: Uint8Array): ReadEnvelope {
  const bytes = asBuffer(payload);
  if (bytes.length < HEADER_BYTES || bytes[0] !== REQUEST_STATE_ENVELOPE_VERSION) {
    throw new InvalidRequestState(MALFORMED);
  }
  const flags = bytes[1]!;
  if ((flags & ~KNOWN_FLAGS) !== 0) throw new InvalidRequestState(MALFORMED);
  const fieldCount =
    3 + (flags & FLAG_AUDIENCE ? 1 : 0) + (flags & FLAG_PRINCIPAL ? 1 : 0) + (flags & FLAG_STATE_ID ? 1 : 0);
  const bounds: number[] = [];
  let offset = HEADER_BYTES;
  for (let i = 0; i < fieldCount; i++) {
    if (offset + LENGTH_BYTES > bytes.length) throw new InvalidRequestState(MALFORMED);
    const end = offset + LENGTH_BYTES + bytes.readUInt32BE(offset);
    if (end > bytes.length) throw new InvalidRequestState(MALFORMED);
    bounds.push(offset + LENGTH_BYTES, end);
    offset = end;
  }
  let trace: Carried | undefined;
  if (flags & (FLAG_TRACE | FLAG_ROUND)) {
    if ((flags & FLAG_TRACE) !== 0 && (flags & FLAG_ROUND) !== 0) throw new InvalidRequestState(MALFORMED);
    const size = flags & FLAG_TRACE ? CARRIED_TRACE_BYTES : CARRIED_ROUND_BYTES;
    if (offset + size > bytes.length) throw new InvalidRequestState(MALFORMED);
    trace = flags & FLAG_TRACE ? readCarriedTrace(bytes, offset) : readCarriedRound(bytes, offset);
    if (trace === undefined) throw new InvalidRequestState(MALFORMED);
    offset += size;
  }
  let state: unknown;
  try {
    state = UTF8.decode(bytes.subarray(offset));
    if (flags & FLAG_JSON_STATE) state = JSON.parse(state as string);
  } catch {
    throw new InvalidRequestState(MALFORMED);
  }
  if (typeof state !== "string") throw new InvalidRequestState(MALFORMED);
  return new ReadEnvelope(bytes, bytes.readDoubleBE(2), bytes.readDoubleBE(10), flags, bounds, state, trace);
}
