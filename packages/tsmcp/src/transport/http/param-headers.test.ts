import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeHeaderValue } from "./headers.js";
import { encodeParamValue, paramHeadersFor, validateParamHeaders } from "./param-headers.js";
import { truncate } from "./validate-headers.js";

describe("encodeParamValue encodes as the spec's table says", () => {
  it.each([
    ["us-west1", "us-west1"],
    [" us-west1", "=?base64?IHVzLXdlc3Qx?="],
    ["日本語", "=?base64?5pel5pys6Kqe?="],
    ["", ""],
    [true, "true"],
    [false, "false"],
    [42, "42"],
    [-7, "-7"],
  ])("sends %j as %j", (value, header) => {
    expect(encodeParamValue(value, "t")).toBe(header);
  });

  it("sends no header for null or an absent value", () => {
    expect(encodeParamValue(null, "t")).toBeUndefined();
    expect(encodeParamValue(undefined, "t")).toBeUndefined();
  });

  it.each([[3.5], [2 ** 53], [{ a: 1 }], [["a"]]])("refuses to mirror %j", (value) => {
    expect(() => encodeParamValue(value, "tool t")).toThrow(TypeError);
  });

  it("round-trips any string through the header codec", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (value) => {
        const header = encodeParamValue(value, "t") as string;
        expect(header).toMatch(/^[\x20-\x7e]*$/);
        expect(decodeHeaderValue(header)).toMatchObject({ value });
      }),
    );
  });
});

describe("paramHeadersFor builds the headers of one call", () => {
  const params = [
    { path: ["region"], name: "Region", type: "string" as const },
    { path: ["options", "limit"], name: "Limit", type: "integer" as const },
    { path: ["verbose"], name: "Verbose", type: "boolean" as const },
  ];

  it("mirrors the values at their exact paths and omits absent and null ones", () => {
    expect(paramHeadersFor("t", params, { region: "eu", options: { limit: 5 }, verbose: null })).toEqual({
      "Mcp-Param-Region": "eu",
      "Mcp-Param-Limit": "5",
    });
    expect(paramHeadersFor("t", params, undefined)).toEqual({});
    expect(paramHeadersFor("t", params, { options: "not an object" })).toEqual({});
  });

  it("names the tool and argument when a value cannot be mirrored", () => {
    expect(() => paramHeadersFor("lookup", params, { options: { limit: 1.5 } })).toThrow(
      /tool "lookup", argument options\.limit/,
    );
  });
});

describe("validateParamHeaders checks the headers of one call against its arguments", () => {
  const params = [
    { path: ["region"], name: "Region", type: "string" as const },
    { path: ["options", "limit"], name: "Limit", type: "integer" as const },
    { path: ["verbose"], name: "Verbose", type: "boolean" as const },
  ];

  it("accepts what paramHeadersFor sends, for any string, safe integer and boolean", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme" }),
        fc.maxSafeInteger().chain((n) => fc.constantFrom(n, -n)),
        fc.boolean(),
        (region, limit, verbose) => {
          const args = { region, options: { limit }, verbose };
          const headers = new Headers(paramHeadersFor("t", params, args));
          expect(validateParamHeaders(params, args, headers)).toBeUndefined();
        },
      ),
    );
  });

  it("refuses the headers of one string for the body of another", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), fc.string({ unit: "grapheme" }), (sent, body) => {
        fc.pre(sent !== body);
        const headers = new Headers(paramHeadersFor("t", params, { region: sent }));
        expect(validateParamHeaders(params, { region: body }, headers)).toMatchObject({
          code: -32020,
          httpStatus: 400,
          data: { header: "Mcp-Param-Region", headerValue: truncate(sent), bodyValue: truncate(body) },
        });
      }),
      // The error's data quotes each value escaped (a line separator as \u2028), never raw.
      {
        examples: [
          ["", "\u2028"],
          ["\u0007", "a"],
        ],
      },
    );
  });

  it("reports the first parameter that disagrees, with its header, both values and the path", () => {
    const headers = new Headers({ "mcp-param-region": "eu" });
    const error = validateParamHeaders(params, { region: "eu", options: { limit: 5 } }, headers);
    expect(error?.message).toBe(
      "Header mismatch: required Mcp-Param-Limit header is missing (body value 5 of argument options.limit)",
    );
    expect(error?.data).toEqual({ header: "Mcp-Param-Limit", bodyValue: 5 });
  });

  it("ignores surrounding whitespace and Mcp-Param headers of names it does not annotate", () => {
    const headers = new Headers({ "Mcp-Param-Region": "  eu\t", "Mcp-Param-Other": "x" });
    expect(validateParamHeaders(params, { region: "eu" }, headers)).toBeUndefined();
  });

  it("never matches an object or array body value, which no client can mirror", () => {
    const headers = new Headers({ "Mcp-Param-Region": '{"a":1}' });
    expect(validateParamHeaders(params, { region: { a: 1 } }, headers)?.message).toBe(
      `Header mismatch: Mcp-Param-Region header value '{"a":1}' does not match body value {"a":1}`,
    );
  });

  it("cuts long body and header values in data the same way as in the message", () => {
    const long = "r".repeat(100_000);
    const cut = `${"r".repeat(200)}…`;
    expect(validateParamHeaders(params, { region: long }, new Headers())?.data).toEqual({
      header: "Mcp-Param-Region",
      bodyValue: cut,
    });
    expect(
      validateParamHeaders(params, { region: long }, new Headers({ "Mcp-Param-Region": "eu" }))?.data,
    ).toEqual({ header: "Mcp-Param-Region", headerValue: "eu", bodyValue: cut });
    expect(
      validateParamHeaders(params, { region: "eu" }, new Headers({ "Mcp-Param-Region": long }))?.data,
    ).toEqual({ header: "Mcp-Param-Region", headerValue: cut, bodyValue: "eu" });
    expect(
      validateParamHeaders(params, {}, new Headers({ "Mcp-Param-Region": `=?base64?${long}?=` }))?.data,
    ).toEqual({ header: "Mcp-Param-Region", headerValue: `=?base64?${"r".repeat(191)}…` });
    const huge = { list: new Array(50_000).fill(1) };
    const error = validateParamHeaders(params, { region: huge }, new Headers({ "Mcp-Param-Region": "eu" }));
    expect(error?.data).toEqual({
      header: "Mcp-Param-Region",
      headerValue: "eu",
      bodyValue: `${JSON.stringify(huge).slice(0, 200)}…`,
    });
    expect(error?.message.length).toBeLessThan(500);
  });

  it("refuses obs-text and a sentinel whose payload is not UTF-8", () => {
    expect(
      validateParamHeaders(params, { region: "é" }, new Headers({ "Mcp-Param-Region": "\u00e9" }))?.message,
    ).toBe("Header mismatch: Mcp-Param-Region header value contains invalid characters");
    expect(
      validateParamHeaders(params, { region: "x" }, new Headers({ "Mcp-Param-Region": "=?base64?/w==?=" }))
        ?.message,
    ).toMatch(/is not valid base64: the base64 payload is not valid UTF-8/);
  });
});
