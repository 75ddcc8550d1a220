import { createCipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AesGcmRequestStateCodec,
  REQUEST_STATE_MIN_KEY_BYTES,
  REQUEST_STATE_TOKEN_PREFIX,
} from "./aes-gcm-codec.js";
import { InvalidRequestState } from "./errors.js";
import { KEY_A, KEY_B, KEY_C } from "./state-test-fixtures.js";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

function reasonOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (error instanceof InvalidRequestState) return error.reason;
    throw error;
  }
  throw new Error("expected InvalidRequestState, but nothing was thrown");
}

function bodyOf(token: string): Buffer {
  return Buffer.from(token.slice(REQUEST_STATE_TOKEN_PREFIX.length), "base64url");
}

function tokenOf(body: Uint8Array, prefix = REQUEST_STATE_TOKEN_PREFIX): string {
  return prefix + Buffer.from(body).toString("base64url");
}

describe("AesGcmRequestStateCodec sealing", () => {
  const codec = new AesGcmRequestStateCodec([KEY_A]);

  it("round-trips payloads from empty to 64 KiB", () => {
    for (const size of [0, 1, 31, 32, 1024, 16 * 1024, 64 * 1024]) {
      const payload = randomBytes(size);
      expect(Buffer.from(codec.unseal(codec.seal(payload))).equals(payload)).toBe(true);
    }
  });

  it("mints v1. plus unpadded base64url over kid, nonce, ciphertext and tag, exactly per the key schedule", () => {
    const payload = Buffer.from('{"s":"hello"}');
    const token = codec.seal(payload);
    expect(token.startsWith("v1.")).toBe(true);
    expect(token.slice(3)).toMatch(/^[A-Za-z0-9_-]+$/);
    const body = bodyOf(token);
    expect(body.length).toBe(4 + 12 + payload.length + 16);
    const key = Buffer.from(
      hkdfSync("sha256", KEY_A, Buffer.alloc(0), Buffer.from("mcp/request-state/v1/aes-256-gcm"), 32),
    );
    const kid = createHash("sha256")
      .update(Buffer.concat([Buffer.from("mcp/request-state/v1/kid:"), key]))
      .digest()
      .subarray(0, 4);
    expect(body.subarray(0, 4).equals(kid)).toBe(true);
    const nonce = body.subarray(4, 16);
    const cipher = createCipheriv("aes-256-gcm", key, nonce);
    cipher.setAAD(Buffer.concat([Buffer.from("v1."), kid]));
    const expected = Buffer.concat([cipher.update(payload), cipher.final(), cipher.getAuthTag()]);
    expect(body.subarray(16).equals(expected)).toBe(true);
  });

  it("gives two seals of one payload distinct tokens that both unseal", () => {
    const payload = Buffer.from("same payload");
    const first = codec.seal(payload);
    const second = codec.seal(payload);
    expect(first).not.toBe(second);
    expect(Buffer.from(codec.unseal(first)).toString()).toBe("same payload");
    expect(Buffer.from(codec.unseal(second)).toString()).toBe("same payload");
  });

  it("reveals the payload neither in the token text nor in its decoded bytes", () => {
    const payload = Buffer.from("secret-plaintext-marker-".repeat(4));
    const token = codec.seal(payload);
    expect(token).not.toContain("secret");
    expect(bodyOf(token).includes(Buffer.from("secret"))).toBe(false);
    expect(token).not.toContain(Buffer.from("secret-plaintext").toString("base64url").slice(0, 12));
  });
});

describe("AesGcmRequestStateCodec refusals", () => {
  const codec = new AesGcmRequestStateCodec([KEY_A]);
  const token = codec.seal(Buffer.from('{"v":1,"s":"round-1"}'));

  it("refuses a token corrupted in any region with a short reason that never echoes the payload", () => {
    const body = bodyOf(token);
    const regions: [string, number, string][] = [
      ["kid", 0, "unknown key"],
      ["nonce", 6, "seal"],
      ["ciphertext", 20, "seal"],
      ["tag", body.length - 1, "seal"],
    ];
    for (const [, index, reason] of regions) {
      const corrupted = Buffer.from(body);
      corrupted[index]! ^= 0x01;
      const got = reasonOf(() => codec.unseal(tokenOf(corrupted)));
      expect(got).toBe(reason);
      expect(got.length).toBeLessThanOrEqual(40);
      expect(got).not.toContain("round-1");
    }
    expect(reasonOf(() => codec.unseal(`v2.${token.slice(3)}`))).toBe("malformed");
  });

  it("refuses structurally malformed tokens", () => {
    for (const bad of ["", "v1.", "v1", "V1.AAAA", "v1.AAAA", `v1.${"A".repeat(42)}`, "garbage", "v1.!!!!"]) {
      expect(reasonOf(() => codec.unseal(bad))).toBe("malformed");
    }
    expect(reasonOf(() => codec.unseal(42 as unknown as string))).toBe("malformed");
  });

  it("refuses every substitution of the final token character", () => {
    const last = token.at(-1)!;
    let substitutions = 0;
    for (const replacement of ALPHABET) {
      if (replacement === last) continue;
      substitutions++;
      expect(["malformed", "seal"]).toContain(reasonOf(() => codec.unseal(token.slice(0, -1) + replacement)));
    }
    expect(substitutions).toBe(63);
  });

  it("refuses non-canonical spellings of a valid token body", () => {
    const spellings = [
      `${token}=`,
      `${token}==`,
      `${token}\n`,
      ` ${token}`,
      `${token.slice(0, 10)}\n${token.slice(10)}`,
      `${token.slice(0, 10)}*${token.slice(10)}`,
      token.replaceAll("-", "+").replaceAll("_", "/"),
      token.replace("v1.", "v1.\t"),
    ];
    for (const spelling of spellings) {
      if (spelling === token) continue;
      expect(reasonOf(() => codec.unseal(spelling))).toBe("malformed");
    }
  });

  it("refuses an alias whose final character differs only in unused bits", () => {
    // 21-byte payload -> 53-byte body -> 71 characters, whose last one carries 2 unused bits.
    const minted = codec.seal(Buffer.alloc(21, 7));
    const body = bodyOf(minted);
    const aliases = [...ALPHABET]
      .map((last) => minted.slice(0, -1) + last)
      .filter((alias) => alias !== minted && bodyOf(alias).equals(body));
    expect(aliases).toHaveLength(3);
    for (const alias of aliases) expect(reasonOf(() => codec.unseal(alias))).toBe("malformed");
  });

  it("refuses a token re-prefixed to a future format version, and a body sealed for another prefix", () => {
    expect(reasonOf(() => codec.unseal(`v2.${token.slice(3)}`))).toBe("malformed");
    const key = Buffer.from(
      hkdfSync("sha256", KEY_A, Buffer.alloc(0), Buffer.from("mcp/request-state/v1/aes-256-gcm"), 32),
    );
    const kid = bodyOf(token).subarray(0, 4);
    const nonce = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, nonce);
    cipher.setAAD(Buffer.concat([Buffer.from("v2."), kid]));
    const sealedForV2 = Buffer.concat([
      kid,
      nonce,
      cipher.update("payload"),
      cipher.final(),
      cipher.getAuthTag(),
    ]);
    expect(reasonOf(() => codec.unseal(tokenOf(sealedForV2, "v1.")))).toBe("seal");
  });

  it("refuses a kid transplanted onto another ring key's body", () => {
    const ring = new AesGcmRequestStateCodec([KEY_A, KEY_B]);
    const underB = new AesGcmRequestStateCodec([KEY_B]).seal(Buffer.from("payload"));
    const transplanted = Buffer.concat([bodyOf(token).subarray(0, 4), bodyOf(underB).subarray(4)]);
    expect(reasonOf(() => ring.unseal(tokenOf(transplanted)))).toBe("seal");
  });

  it("throws nothing but InvalidRequestState for arbitrary strings", () => {
    const tokenish = fc
      .string({ unit: fc.constantFrom(...ALPHABET), minLength: 0, maxLength: 200 })
      .map((body) => `v1.${body}`);
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary" }), tokenish), (text) => {
        expect(() => codec.unseal(text)).toThrow(InvalidRequestState);
      }),
      { numRuns: 2000 },
    );
  });

  it("unseals whatever it sealed", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (payload) => {
        expect(Buffer.from(codec.unseal(codec.seal(payload))).equals(Buffer.from(payload))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe("AesGcmRequestStateCodec key ring", () => {
  it("refuses a token minted under a key outside the ring as unknown key", () => {
    const token = new AesGcmRequestStateCodec([KEY_B]).seal(Buffer.from("x"));
    expect(reasonOf(() => new AesGcmRequestStateCodec([KEY_A]).unseal(token))).toBe("unknown key");
  });

  it("unseals a token minted under the old key with any ring containing it", () => {
    const token = new AesGcmRequestStateCodec([KEY_A]).seal(Buffer.from("old"));
    for (const ring of [[KEY_A], [KEY_A, KEY_B], [KEY_B, KEY_A], [KEY_C, KEY_B, KEY_A]]) {
      expect(Buffer.from(new AesGcmRequestStateCodec(ring).unseal(token)).toString()).toBe("old");
    }
  });

  it("mints with the first ring key while later ring keys only verify", () => {
    const token = new AesGcmRequestStateCodec([KEY_B, KEY_A]).seal(Buffer.from("new"));
    expect(Buffer.from(new AesGcmRequestStateCodec([KEY_B]).unseal(token)).toString()).toBe("new");
    expect(reasonOf(() => new AesGcmRequestStateCodec([KEY_A]).unseal(token))).toBe("unknown key");
  });

  it("refuses a token minted under a retired key", () => {
    const token = new AesGcmRequestStateCodec([KEY_A, KEY_B]).seal(Buffer.from("old"));
    expect(reasonOf(() => new AesGcmRequestStateCodec([KEY_B]).unseal(token))).toBe("unknown key");
  });

  it("refuses an empty key ring at construction", () => {
    expect(() => new AesGcmRequestStateCodec([])).toThrow(RangeError);
    expect(() => new AesGcmRequestStateCodec([])).toThrow(/at least one key/);
  });

  it("refuses a key shorter than 32 bytes and says how to generate one", () => {
    expect(REQUEST_STATE_MIN_KEY_BYTES).toBe(32);
    const attempt = () => new AesGcmRequestStateCodec([KEY_A, "k".repeat(31)]);
    expect(attempt).toThrow(RangeError);
    expect(attempt).toThrow(
      "request-state keys must be at least 32 bytes of secret randomness; keys[1] is 31 bytes. " +
        "Generate one with: node -e \"console.log(require('crypto').randomBytes(32).toString('base64url'))\"",
    );
    expect(() => new AesGcmRequestStateCodec([new Uint8Array(16)])).toThrow(/keys\[0\] is 16 bytes/);
    expect(() => new AesGcmRequestStateCodec(["é".repeat(16)])).not.toThrow();
  });

  it("refuses a duplicate key in the ring at construction", () => {
    expect(() => new AesGcmRequestStateCodec([KEY_A, KEY_B, Buffer.from(KEY_A)])).toThrow(
      "keys[2] duplicates an earlier ring key",
    );
    expect(() => new AesGcmRequestStateCodec(["k".repeat(32), Buffer.from("k".repeat(32))])).toThrow(
      RangeError,
    );
  });

  it("refuses a ring entry that is not key-typed, naming its index and type", () => {
    const entries: unknown[] = [KEY_A, 42];
    expect(() => new AesGcmRequestStateCodec(entries as Uint8Array[])).toThrow(
      "request-state keys must be Uint8Array or string; keys[1] is number",
    );
    expect(() => new AesGcmRequestStateCodec([null] as unknown as string[])).toThrow(/keys\[0\] is null/);
    expect(() => new AesGcmRequestStateCodec([[1, 2, 3]] as unknown as string[])).toThrow(
      /keys\[0\] is Array/,
    );
    expect(() => new AesGcmRequestStateCodec("k".repeat(32) as unknown as string[])).toThrow(TypeError);
  });

  it("works with a mixed ring of Buffer, Uint8Array and string entries", () => {
    const ring = new AesGcmRequestStateCodec([KEY_A, new Uint8Array(KEY_B), KEY_C]);
    for (const key of [KEY_A, KEY_B, KEY_C]) {
      const token = new AesGcmRequestStateCodec([key]).seal(Buffer.from("mixed"));
      expect(Buffer.from(ring.unseal(token)).toString()).toBe("mixed");
    }
  });

  it("treats a string key as its UTF-8 bytes", () => {
    const text = "ключ-".repeat(8);
    const token = new AesGcmRequestStateCodec([text]).seal(Buffer.from("utf8"));
    expect(
      Buffer.from(new AesGcmRequestStateCodec([Buffer.from(text, "utf8")]).unseal(token)).toString(),
    ).toBe("utf8");
  });

  it("copies key material at construction", () => {
    const key = new Uint8Array(KEY_A);
    const codec = new AesGcmRequestStateCodec([key]);
    key.fill(0);
    const token = new AesGcmRequestStateCodec([KEY_A]).seal(Buffer.from("copied"));
    expect(Buffer.from(codec.unseal(token)).toString()).toBe("copied");
    expect(
      Buffer.from(new AesGcmRequestStateCodec([KEY_A]).unseal(codec.seal(Buffer.from("x")))).toString(),
    ).toBe("x");
  });
});
