import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeCanonicalBase64Url, encodeBase64Url } from "./base64url.js";

/** The definition: the text decodes to bytes that encode back to exactly the text. */
function reference(text: string): Buffer | undefined {
  const bytes = Buffer.from(text, "base64url");
  return bytes.toString("base64url") === text ? bytes : undefined;
}

describe("canonical base64url", () => {
  it("round-trips any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(decodeCanonicalBase64Url(encodeBase64Url(bytes))).toEqual(Buffer.from(bytes));
      }),
      { numRuns: 500 },
    );
  });

  it("refuses padding, the other alphabet, junk, whitespace and non-zero trailing bits", () => {
    for (const text of [
      "QQ==",
      "QUI=",
      "Q",
      "QUJD+",
      "QUJ/",
      "a+b/",
      "QR",
      "QUJ",
      "QUK",
      " QUJD",
      "QU JD",
      "QUJD\n",
      "QU=D",
      "QUJD!",
      "QUJDé",
    ]) {
      expect(reference(text)).toBeUndefined();
      expect(decodeCanonicalBase64Url(text)).toBeUndefined();
    }
  });

  it("agrees with decoding and re-encoding on any text over the base64 alphabets (property)", () => {
    const alphabet = [
      ..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/= \n.é\u0000\u012b\u012f\u0141",
    ];
    const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 24 }).map((chars) => chars.join(""));
    fc.assert(
      fc.property(text, (candidate) => {
        expect(decodeCanonicalBase64Url(candidate)).toEqual(reference(candidate));
      }),
      { numRuns: 5_000 },
    );
    // Every one- and two-character text, whatever the character.
    for (let a = 0; a < 0x400; a++) {
      const one = String.fromCharCode(a);
      expect(decodeCanonicalBase64Url(one)).toEqual(reference(one));
      for (const b of alphabet) expect(decodeCanonicalBase64Url(one + b)).toEqual(reference(one + b));
    }
  });
});
