/**
 * The built-in requestState codec: AES-256-GCM over keys derived with HKDF-SHA256 from a ring of
 * secrets, all on `node:crypto`. `keys[0]` mints; every key verifies, so rotation never drops a flow
 * in progress. Token: `"v1." + base64url(kid(4) || nonce(12) || ciphertext || tag(16))`, with
 * `"v1." || kid` bound as associated data. Spec: basic/patterns/mrtr
 * §Server Requirements (Basic Workflow).
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createSecretKey,
  hkdfSync,
  type KeyObject,
} from "node:crypto";
import { decodeCanonicalBase64Url } from "./base64url.js";
import type { RequestStateCodec } from "./codec.js";
import { describeType } from "./describe-type.js";
import { InvalidRequestState } from "./errors.js";
import { fillRandom } from "./random-pool.js";

/** The shortest secret the key ring accepts, in bytes. */
export const REQUEST_STATE_MIN_KEY_BYTES = 32;

/** The format-version prefix of every built-in token. */
export const REQUEST_STATE_TOKEN_PREFIX = "v1.";

/** How to make a good key, quoted by every key-length error. */
export const REQUEST_STATE_KEY_GUIDANCE =
  "Generate one with: node -e \"console.log(require('crypto').randomBytes(32).toString('base64url'))\"";

/** A ring secret: raw bytes, or a string used as its UTF-8 bytes. */
export type RequestStateKey = Uint8Array | string;

const HKDF_INFO = Buffer.from("mcp/request-state/v1/aes-256-gcm", "ascii");
const KID_LABEL = Buffer.from("mcp/request-state/v1/kid:", "ascii");
const PREFIX_BYTES = Buffer.from(REQUEST_STATE_TOKEN_PREFIX, "ascii");
const KID_BYTES = 4;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const MIN_BODY_BYTES = KID_BYTES + NONCE_BYTES + TAG_BYTES;
const ALGORITHM = "aes-256-gcm";
const CIPHER_OPTIONS = Object.freeze({ authTagLength: TAG_BYTES });

interface RingKey {
  readonly kid: Buffer;
  readonly aad: Buffer;
  readonly key: KeyObject;
}

function secretBytes(entry: unknown, index: number): Buffer {
  if (typeof entry === "string") return Buffer.from(entry, "utf8");
  if (entry instanceof Uint8Array) return Buffer.from(entry);
  throw new TypeError(
    `request-state keys must be Uint8Array or string; keys[${index}] is ${describeType(entry)}`,
  );
}

function deriveRingKey(secret: Buffer): RingKey {
  const derived = Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), HKDF_INFO, KEY_BYTES));
  const kid = createHash("sha256").update(KID_LABEL).update(derived).digest().subarray(0, KID_BYTES);
  const key = createSecretKey(derived);
  derived.fill(0);
  return { kid, aad: Buffer.concat([PREFIX_BYTES, kid]), key };
}

/**
 * AES-256-GCM requestState codec over a key ring.
 *
 * Per ring secret `S`: `K = HKDF-SHA256(ikm=S, salt=none, info="mcp/request-state/v1/aes-256-gcm", 32)`
 * and `kid = SHA-256("mcp/request-state/v1/kid:" || K)[:4]`, both derived once, here. Sealing uses
 * `keys[0]` with a fresh random 12-byte nonce, so identical payloads give distinct tokens; opening
 * looks the key up by kid. Only the canonical unpadded base64url spelling of a token opens.
 *
 * ```ts
 * const codec = new AesGcmRequestStateCodec([process.env.STATE_KEY_NEW!, process.env.STATE_KEY_OLD!]);
 * ```
 *
 * @param keys secrets, newest first; each a `Uint8Array` (copied) or a string (its UTF-8 bytes),
 *   at least {@link REQUEST_STATE_MIN_KEY_BYTES} bytes. Rotation: `[OLD, NEW]` (every instance
 *   learns NEW) -> `[NEW, OLD]` (NEW mints) -> `[NEW]` one TTL later.
 * @throws TypeError when `keys` is not an array or an entry is neither `Uint8Array` nor string;
 *   RangeError for an empty ring, a key shorter than 32 bytes, or a duplicate key.
 */
export class AesGcmRequestStateCodec implements RequestStateCodec {
  readonly #minter: RingKey;
  /** Scratch space for each seal's fresh nonce. */
  readonly #nonce = Buffer.alloc(NONCE_BYTES);
  /** Ring keys by their kid, read as a big-endian 32-bit integer. */
  readonly #byKid: ReadonlyMap<number, RingKey>;

  constructor(keys: readonly RequestStateKey[]) {
    if (!Array.isArray(keys)) {
      throw new TypeError(`request-state keys must be an array of secrets; got ${describeType(keys)}`);
    }
    if (keys.length === 0) {
      throw new RangeError(
        `AesGcmRequestStateCodec requires at least one key. ${REQUEST_STATE_KEY_GUIDANCE}`,
      );
    }
    const byKid = new Map<number, RingKey>();
    const ring: RingKey[] = [];
    keys.forEach((entry: unknown, index) => {
      const secret = secretBytes(entry, index);
      if (secret.length < REQUEST_STATE_MIN_KEY_BYTES) {
        throw new RangeError(
          `request-state keys must be at least ${REQUEST_STATE_MIN_KEY_BYTES} bytes of secret randomness; ` +
            `keys[${index}] is ${secret.length} bytes. ${REQUEST_STATE_KEY_GUIDANCE}`,
        );
      }
      const ringKey = deriveRingKey(secret);
      secret.fill(0);
      const id = ringKey.kid.readUInt32BE(0);
      if (byKid.has(id)) throw new RangeError(`keys[${index}] duplicates an earlier ring key`);
      byKid.set(id, ringKey);
      ring.push(ringKey);
    });
    this.#minter = ring[0]!;
    this.#byKid = byKid;
  }

  /** Seals `payload` under `keys[0]`: `"v1." + base64url(kid || nonce || ct || tag)`. */
  seal(payload: Uint8Array): string {
    const { kid, aad, key } = this.#minter;
    const body = Buffer.allocUnsafe(MIN_BODY_BYTES + payload.length);
    body.set(kid, 0);
    // Public and used once: the cipher copies it at creation, the token carries it.
    const nonce = this.#nonce;
    fillRandom(nonce);
    body.set(nonce, KID_BYTES);
    const cipher = createCipheriv(ALGORITHM, key, nonce, CIPHER_OPTIONS);
    cipher.setAAD(aad);
    const ciphertext = cipher.update(payload);
    body.set(ciphertext, KID_BYTES + NONCE_BYTES);
    let offset = KID_BYTES + NONCE_BYTES + ciphertext.length;
    const tail = cipher.final(); // empty for GCM, a stream mode
    if (tail.length !== 0) {
      body.set(tail, offset);
      offset += tail.length;
    }
    body.set(cipher.getAuthTag(), offset);
    return REQUEST_STATE_TOKEN_PREFIX + body.toString("base64url");
  }

  /**
   * Opens a token minted under any ring key.
   *
   * @throws InvalidRequestState with reason `"malformed"` (no `"v1."` prefix, non-canonical
   *   base64url, too short), `"unknown key"` (kid not in the ring) or `"seal"` (authentication failed).
   */
  unseal(token: string): Uint8Array {
    if (typeof token !== "string" || !token.startsWith(REQUEST_STATE_TOKEN_PREFIX)) {
      throw new InvalidRequestState("malformed");
    }
    const body = decodeCanonicalBase64Url(token.slice(REQUEST_STATE_TOKEN_PREFIX.length));
    if (body === undefined || body.length < MIN_BODY_BYTES) throw new InvalidRequestState("malformed");
    const ringKey = this.#byKid.get(body.readUInt32BE(0));
    if (ringKey === undefined) throw new InvalidRequestState("unknown key");
    const nonce = body.subarray(KID_BYTES, KID_BYTES + NONCE_BYTES);
    const ciphertext = body.subarray(KID_BYTES + NONCE_BYTES, body.length - TAG_BYTES);
    const decipher = createDecipheriv(ALGORITHM, ringKey.key, nonce, CIPHER_OPTIONS);
    decipher.setAAD(ringKey.aad);
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    try {
      const head = decipher.update(ciphertext);
      const tail = decipher.final();
      return tail.length === 0 ? head : Buffer.concat([head, tail]);
    } catch {
      throw new InvalidRequestState("seal");
    }
  }
}
