/**
 * How the transport environment (notification sink, HTTP headers) reaches code that holds only a
 * handler's `Context`: every context tsmcp builds carries it under one explicit key, a wrapping
 * context reads it through to the one it wraps, and anything else is refused.
 */
import { describe, expect, it } from "vitest";
import type { RequestMeta } from "../../protocol/schema/base.js";
import { META } from "../../protocol/versions.js";
import type { RequestEnvironment } from "../../transport/dispatcher.js";
import { createRequestContext, environmentOf, type RequestContext } from "../context.js";
import { createContext, withResolved } from "./context.js";

const meta = {
  [META.protocolVersion]: "2026-07-28",
  [META.clientCapabilities]: {},
} as unknown as RequestMeta;

function lowLevel(env: RequestEnvironment): RequestContext {
  return createRequestContext("tools/call", 1, meta, env);
}

describe("environmentOf", () => {
  it("reads the environment of a low-level context, a Context over it, and that Context with resolved values", () => {
    const env: RequestEnvironment = {
      signal: new AbortController().signal,
      headers: new Headers({ a: "1" }),
    };
    const base = lowLevel(env);
    const ctx = createContext(base, { requestState: "s" }, async () => ({ contents: [] }));
    const resolved = withResolved(ctx, Object.freeze({ region: "eu" }));
    expect(environmentOf(base)).toBe(env);
    expect(environmentOf(ctx)).toBe(env);
    expect(environmentOf(resolved)).toBe(env);
    expect(resolved.resolved).toEqual({ region: "eu" });
    expect(resolved.requestState).toBe("s");
    expect(resolved.method).toBe("tools/call");
    expect("resolved" in ctx).toBe(false);
  });

  it("refuses a look-alike that only has the fields (no environment key), even one wrapping a real context", () => {
    const base = lowLevel({ signal: new AbortController().signal });
    const lookalike = { method: base.method, signal: base.signal, base } as unknown as RequestContext;
    expect(() => environmentOf(lookalike)).toThrow(TypeError);
    expect(() => withResolved(lookalike as never, {})).toThrow(TypeError);
  });
});
