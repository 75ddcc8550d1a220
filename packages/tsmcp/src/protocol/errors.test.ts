import { describe, expect, it } from "vitest";
import { ERRORS, httpStatusForCode, McpError } from "./errors.js";

/** The JSON-RPC codes of the spec, by the kind of the table that carries each first. */
const SPEC_CODES = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  HEADER_MISMATCH: -32020,
  MISSING_REQUIRED_CLIENT_CAPABILITY: -32021,
  UNSUPPORTED_PROTOCOL_VERSION: -32022,
} as const;

describe("the error table", () => {
  it("pins every kind's JSON-RPC code and HTTP status", () => {
    expect(ERRORS).toStrictEqual({
      PARSE_ERROR: { code: -32700, httpStatus: 400 },
      INVALID_REQUEST: { code: -32600, httpStatus: 400 },
      METHOD_NOT_FOUND: { code: -32601, httpStatus: 404 },
      INVALID_PARAMS: { code: -32602, httpStatus: 400 },
      INTERNAL_ERROR: { code: -32603, httpStatus: 500 },
      REQUEST_TIMEOUT: { code: -32001, httpStatus: 504 },
      HEADER_MISMATCH: { code: -32020, httpStatus: 400 },
      MISSING_REQUIRED_CLIENT_CAPABILITY: { code: -32021, httpStatus: 400 },
      UNSUPPORTED_PROTOCOL_VERSION: { code: -32022, httpStatus: 400 },
      FORBIDDEN: { code: -32600, httpStatus: 403 },
      PAYLOAD_TOO_LARGE: { code: -32600, httpStatus: 413 },
      METHOD_NOT_ALLOWED: { code: -32600, httpStatus: 405 },
      UNSUPPORTED_MEDIA_TYPE: { code: -32600, httpStatus: 415 },
      NOT_ACCEPTABLE: { code: -32600, httpStatus: 406 },
      REQUEST_NOT_RECEIVED_IN_TIME: { code: -32600, httpStatus: 408 },
      HEADERS_TOO_LARGE: { code: -32600, httpStatus: 431 },
    });
    expect(Object.isFrozen(ERRORS)).toBe(true);
  });

  it("pins the spec's codes by name", () => {
    for (const [kind, code] of Object.entries(SPEC_CODES)) {
      expect(ERRORS[kind as keyof typeof SPEC_CODES].code, kind).toBe(code);
    }
  });
});

describe("httpStatusForCode", () => {
  it("maps every code of the spec to its status", () => {
    const statuses = Object.fromEntries(
      Object.entries(SPEC_CODES).map(([name, code]) => [name, httpStatusForCode(code)]),
    );
    expect(statuses).toStrictEqual({
      PARSE_ERROR: 400,
      INVALID_REQUEST: 400,
      METHOD_NOT_FOUND: 404,
      INVALID_PARAMS: 400,
      INTERNAL_ERROR: 500,
      HEADER_MISMATCH: 400,
      MISSING_REQUIRED_CLIENT_CAPABILITY: 400,
      UNSUPPORTED_PROTOCOL_VERSION: 400,
    });
  });

  it("maps the back-channel timeout -32001 to 504, the server having waited on its peer", () => {
    expect(httpStatusForCode(-32001)).toBe(504);
  });

  it("maps -32600 to the invalid request's 400, not a transport refusal's status", () => {
    expect(httpStatusForCode(-32600)).toBe(400);
    expect(new McpError(-32600, "Bad").httpStatus).toBe(400);
  });

  it("maps an application-defined or unknown code to 200", () => {
    for (const code of [0, 1, 42, -1, -32000, -32002, -32019, -32023, -32099, -32604, -32699, -32701, 1.5]) {
      expect(httpStatusForCode(code), String(code)).toBe(200);
      expect(new McpError(code, "x").httpStatus, String(code)).toBe(200);
    }
  });

  it("agrees with the table for every kind that is the first with its code", () => {
    const seen = new Set<number>();
    for (const [kind, { code, httpStatus }] of Object.entries(ERRORS)) {
      if (seen.has(code)) continue;
      seen.add(code);
      expect(httpStatusForCode(code), kind).toBe(httpStatus);
    }
    expect([...seen].sort()).toStrictEqual(
      [...Object.values(SPEC_CODES), ERRORS.REQUEST_TIMEOUT.code].sort(),
    );
  });
});

describe("McpError", () => {
  it("takes each kind's own status from McpError.of, transport refusals included", () => {
    for (const [kind, { code, httpStatus }] of Object.entries(ERRORS)) {
      const error = McpError.of(kind as keyof typeof ERRORS, "m");
      expect({ kind, code: error.code, httpStatus: error.httpStatus }).toStrictEqual({
        kind,
        code,
        httpStatus,
      });
    }
  });

  it("keeps an explicit status over the table's", () => {
    expect(new McpError(-32602, "m", undefined, { httpStatus: 422 }).httpStatus).toBe(422);
    expect(McpError.fromObject({ code: -32603, message: "m" }, { httpStatus: 502 }).httpStatus).toBe(502);
    expect(McpError.fromObject({ code: -32603, message: "m" }).httpStatus).toBe(500);
  });
});
