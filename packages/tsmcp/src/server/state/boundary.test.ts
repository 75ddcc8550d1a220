import { describe, expect, it } from "vitest";
import { requestMeta } from "../../../../../test/helpers/meta.js";
import type { JSONRPCResponse } from "../../protocol/jsonrpc.js";
import { InMemoryTransport } from "../../transport/memory.js";
import { createRequestContext } from "../context.js";
import { inputRequired } from "../input-required.js";
import { silentLogger } from "../logger.js";
import { type MiddlewareRequest, middlewareRequest, type WireResult } from "../middleware.js";
import { Server } from "../server.js";
import { AesGcmRequestStateCodec } from "./aes-gcm-codec.js";
import { requestStateBoundary } from "./boundary.js";
import { encodeClaims, REQUEST_STATE_ENVELOPE_VERSION, requestBinding } from "./claims.js";
import type { RequestStateCodec } from "./codec.js";
import { INVALID_REQUEST_STATE_ERROR, InvalidRequestState } from "./errors.js";
import { RequestStateSecurity } from "./policy.js";
import {
  ASK_REGION,
  CapturingLogger,
  envelopeFields,
  errorOf,
  flowServer,
  KEY_A,
  ManualClock,
  request,
  resultOf,
  send,
  stateOf,
  textOf,
} from "./state-test-fixtures.js";

function setup(options: { name?: string; rounds?: number; defaultAudience?: string | null } = {}) {
  const clock = new ManualClock();
  const logger = new CapturingLogger();
  const policy = new RequestStateSecurity({ keys: [KEY_A], clock, logger });
  return { clock, logger, policy, ...flowServer(policy, options) };
}

function claimsOf(token: string): Record<string, unknown> {
  return envelopeFields(new AesGcmRequestStateCodec([KEY_A]).unseal(token));
}

function expectFrozenRefusal(response: JSONRPCResponse, logger: CapturingLogger, line: string): void {
  expect(errorOf(response)).toStrictEqual({
    code: -32602,
    message: "Invalid or expired requestState",
    data: { reason: "invalid_request_state" },
  });
  expect(logger.lines.at(-1)).toMatchObject({ level: "warn", message: line });
}

const provision = (params: Record<string, unknown> = {}, id: string | number = 1) =>
  request("tools/call", { name: "provision", arguments: { name: "orders" }, ...params }, id);

describe("the frozen wire error", () => {
  it("is exactly the documented object, deeply frozen", () => {
    expect(JSON.stringify(INVALID_REQUEST_STATE_ERROR)).toBe(
      '{"code":-32602,"message":"Invalid or expired requestState","data":{"reason":"invalid_request_state"}}',
    );
    expect(Object.isFrozen(INVALID_REQUEST_STATE_ERROR)).toBe(true);
    expect(Object.isFrozen(INVALID_REQUEST_STATE_ERROR.data)).toBe(true);
  });
});

describe("requestStateBoundary construction", () => {
  it("requires defaultAudience, accepting a string or a deliberate null", () => {
    const policy = RequestStateSecurity.ephemeral();
    expect(() => requestStateBoundary(policy, {} as { defaultAudience: string })).toThrow(
      /defaultAudience is required/,
    );
    expect(() => requestStateBoundary(policy, undefined as unknown as { defaultAudience: string })).toThrow(
      TypeError,
    );
    expect(() => requestStateBoundary(policy, { defaultAudience: 7 as unknown as string })).toThrow(
      TypeError,
    );
    expect(typeof requestStateBoundary(policy, { defaultAudience: null })).toBe("function");
  });

  it("requires a RequestStateSecurity policy", () => {
    const codec = { seal: () => "x", unseal: () => new Uint8Array() };
    expect(() =>
      requestStateBoundary({ codec } as unknown as RequestStateSecurity, { defaultAudience: "x" }),
    ).toThrow(TypeError);
  });
});

describe("the round trip", () => {
  it("seals requestState on the wire and restores the plaintext for the handler", async () => {
    const { server, seen } = setup();
    const first = await send(server, provision());
    const token = stateOf(first);
    expect(token).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(token).not.toContain("step-1");
    expect(resultOf(first).inputRequests).toEqual({ region: ASK_REGION });
    const second = await send(
      server,
      provision(
        { requestState: token, inputResponses: { region: { action: "accept", content: { region: "eu" } } } },
        2,
      ),
    );
    expect(textOf(second)).toBe("done after step-1");
    expect(seen).toEqual([undefined, "step-1"]);
  });

  it("gives a low-level server the full envelope from the one-line middleware, with the server name as audience", async () => {
    const { server, clock } = setup();
    const claims = claimsOf(stateOf(await send(server, provision())));
    expect(claims).toEqual({
      v: REQUEST_STATE_ENVELOPE_VERSION,
      iat: clock.nowMs,
      exp: clock.nowMs + 600_000,
      m: "tools/call",
      t: "provision",
      a: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      s: "step-1",
      aud: "Provisioner",
    });
  });

  it("seals a resource template flow on resources/read and restores the plaintext", async () => {
    const { server, seen } = setup();
    const token = stateOf(await send(server, request("resources/read", { uri: "notes://42" })));
    expect(claimsOf(token)).toMatchObject({ m: "resources/read", t: "notes://42", s: "step-1" });
    const done = await send(server, request("resources/read", { uri: "notes://42", requestState: token }, 2));
    expect(resultOf(done).contents).toEqual([{ uri: "notes://42", text: "done after step-1" }]);
    expect(seen).toEqual([undefined, "step-1"]);
  });

  it("seals a prompt flow on prompts/get and restores the plaintext", async () => {
    const { server } = setup();
    const token = stateOf(await send(server, request("prompts/get", { name: "briefing" })));
    expect(claimsOf(token)).toMatchObject({ m: "prompts/get", t: "briefing", s: "step-1" });
    const done = await send(server, request("prompts/get", { name: "briefing", requestState: token }, 2));
    expect(resultOf(done).messages).toHaveLength(1);
  });

  it("reseals each round with a fresh token and a restamped iat", async () => {
    const { server, clock, seen } = setup({ rounds: 3 });
    const first = stateOf(await send(server, provision()));
    clock.nowMs += 5_000;
    const second = stateOf(await send(server, provision({ requestState: first }, 2)));
    expect(second).not.toBe(first);
    expect(claimsOf(second).iat).toBe((claimsOf(first).iat as number) + 5_000);
    expect(claimsOf(second).exp).toBe(clock.nowMs + 600_000);
    clock.nowMs += 599_999;
    expect(textOf(await send(server, provision({ requestState: second }, 3)))).toBe("done after step-2");
    expect(seen).toEqual([undefined, "step-1", "step-2"]);
  });

  it("keeps the full TTL for a fractional mint instant", async () => {
    const { server, clock } = setup();
    clock.nowMs += 0.75;
    const token = stateOf(await send(server, provision()));
    const claims = claimsOf(token);
    expect(claims.iat).toBe(clock.nowMs);
    expect((claims.exp as number) - (claims.iat as number)).toBe(600_000);
    clock.nowMs += 599_999.9;
    expect(textOf(await send(server, provision({ requestState: token }, 2)))).toBe("done after step-1");
  });

  it("runs a whole flow over the in-memory transport, JSON on both sides", async () => {
    const { server } = setup();
    const transport = new InMemoryTransport(server);
    const first = await transport.request(provision());
    const second = await transport.request(provision({ requestState: stateOf(first) }, 2));
    expect(textOf(second)).toBe("done after step-1");
  });

  it("passes a boundary-free low-level server's requestState through verbatim", async () => {
    const { server } = flowServer(undefined);
    expect(stateOf(await send(server, provision()))).toBe("step-1");
    expect(textOf(await send(server, provision({ requestState: "step-1" }, 2)))).toBe("done after step-1");
  });
});

describe("logging", () => {
  it("logs refusals through the server's logger when the policy names none", async () => {
    const serverLogger = new CapturingLogger();
    const server = new Server("Provisioner", {
      logger: serverLogger,
      onCallTool: () => ({ content: [] }),
    }).use(
      requestStateBoundary(new RequestStateSecurity({ keys: [KEY_A] }), { defaultAudience: "Provisioner" }),
    );
    const response = await send(server, request("tools/call", { name: "provision", requestState: "forged" }));
    expect(errorOf(response)).toEqual(INVALID_REQUEST_STATE_ERROR);
    expect(serverLogger.messages).toEqual(["requestState rejected on tools/call: malformed"]);
  });
});

describe("inbound requestState on the wire", () => {
  it("refuses a non-string requestState with the frozen error", async () => {
    const { server, logger, seen } = setup();
    for (const bad of [42, true, { token: "x" }, ["v1.x"]]) {
      expectFrozenRefusal(
        await send(server, provision({ requestState: bad })),
        logger,
        "requestState rejected on tools/call: malformed (non-string requestState)",
      );
    }
    expect(seen).toEqual([]);
  });

  it("treats an explicit null requestState as absent", async () => {
    const { server, seen } = setup();
    const response = await send(server, provision({ requestState: null }));
    expect(stateOf(response)).toMatch(/^v1\./);
    expect(seen).toEqual([undefined]);
  });

  it("answers a bad requestState on an otherwise invalid request with the frozen error, before params validation", async () => {
    const { server, logger } = setup();
    const response = await send(server, request("tools/call", { name: 42, requestState: "step-1" }));
    expectFrozenRefusal(response, logger, "requestState rejected on tools/call: malformed");
  });

  it("verifies requestState even for a tool that never mints one", async () => {
    const { server, logger, seen } = setup();
    const response = await send(
      server,
      request("tools/call", { name: "forecast", requestState: "round-1-from-worker-a" }),
    );
    expectFrozenRefusal(response, logger, "requestState rejected on tools/call: malformed");
    expect(seen).toEqual([]);
  });

  it("does not mutate the params it was given", async () => {
    const { server } = setup();
    const token = stateOf(await send(server, provision()));
    const retry = provision({ requestState: token }, 2);
    const snapshot = structuredClone(retry);
    await send(server, retry);
    expect(retry).toEqual(snapshot);
  });
});

describe("the boundary's scope", () => {
  function scopedServer(inner: (request: MiddlewareRequest) => WireResult | undefined) {
    const logger = new CapturingLogger();
    const policy = new RequestStateSecurity({ keys: [KEY_A], logger });
    const server = new Server("Provisioner", {
      onListTools: () => ({ tools: [] }),
      onCallTool: () => inputRequired({ inputRequests: { region: ASK_REGION } }),
    });
    server.use(requestStateBoundary(policy, { defaultAudience: server.name }));
    server.use(async (req, next) => inner(req) ?? next(req));
    return { server, logger };
  }

  it("passes an inbound requestState on a non-carrier method through unverified", async () => {
    let seenState: unknown;
    const { server, logger } = scopedServer((req) => {
      seenState = req.params.requestState;
      return undefined;
    });
    const response = await send(server, request("tools/list", { requestState: "plain" }));
    expect(resultOf(response).tools).toEqual([]);
    expect(seenState).toBe("plain");
    expect(logger.lines).toEqual([]);
  });

  it("does not seal an outbound requestState on a non-carrier method", async () => {
    const { server } = scopedServer((req) =>
      req.method === "tools/list" ? { resultType: "input_required", requestState: "plain" } : undefined,
    );
    expect(resultOf(await send(server, request("tools/list", {}))).requestState).toBe("plain");
  });

  it("leaves an InputRequiredResult without requestState untouched", async () => {
    const { server } = scopedServer(() => undefined);
    const result = resultOf(await send(server, provision()));
    expect(result.inputRequests).toEqual({ region: ASK_REGION });
    expect(Object.hasOwn(result, "requestState")).toBe(false);
  });

  it("leaves an input-required mapping with a non-string state unsealed", async () => {
    const { server } = scopedServer(() => ({
      resultType: "input_required",
      inputRequests: { region: ASK_REGION },
      requestState: 42,
    }));
    expect(resultOf(await send(server, provision())).requestState).toBe(42);
  });

  it("returns a complete result as the very same object, and seals a short-circuited result on a copy", async () => {
    const policy = new RequestStateSecurity({ keys: [KEY_A] });
    const boundary = requestStateBoundary(policy, { defaultAudience: "Provisioner" });
    const context = createRequestContext("tools/call", 1, requestMeta() as never, {
      signal: new AbortController().signal,
    });
    const req: MiddlewareRequest = middlewareRequest(
      "tools/call",
      { name: "provision" },
      context,
      silentLogger,
    );
    const complete = { resultType: "complete", content: [] };
    expect(await boundary(req, async () => complete)).toBe(complete);
    const shortCircuited = Object.freeze({ resultType: "input_required", requestState: "plain" });
    const sealed = await boundary(req, async () => shortCircuited);
    expect(sealed).not.toBe(shortCircuited);
    expect(sealed.requestState).toMatch(/^v1\./);
    expect(shortCircuited.requestState).toBe("plain");
  });

  it("lets a notification and a params-less non-MRTR request cross unharmed", async () => {
    const { server } = scopedServer(() => undefined);
    expect(
      await server.handle(
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
        { signal: new AbortController().signal },
      ),
    ).toBeUndefined();
    const discover = await send(server, {
      jsonrpc: "2.0",
      id: 1,
      method: "server/discover",
      params: { _meta: requestMeta() },
    });
    expect(resultOf(discover).supportedVersions).toEqual(["2026-07-28"]);
  });
});

describe("codec failures", () => {
  function codecServer(codec: RequestStateCodec) {
    const logger = new CapturingLogger();
    const policy = new RequestStateSecurity({ codec, logger });
    return { logger, ...flowServer(policy) };
  }

  it("fails closed with the frozen error when unseal throws something unexpected, logging its type only", async () => {
    const { server, logger } = codecServer({
      seal: () => "opaque",
      unseal: () => {
        throw new TypeError("the secret token was opaque-123");
      },
    });
    expectFrozenRefusal(
      await send(server, provision({ requestState: "opaque-123" })),
      logger,
      "requestState rejected on tools/call: codec error",
    );
    expect(logger.lines.at(-1)?.fields).toEqual({
      method: "tools/call",
      reason: "codec error",
      cause: "TypeError",
    });
    expect(JSON.stringify(logger.lines)).not.toContain("opaque-123");
  });

  it("fails closed when unseal returns something other than bytes", async () => {
    const { server, logger } = codecServer({
      seal: () => "x",
      unseal: () => "text" as unknown as Uint8Array,
    });
    expectFrozenRefusal(
      await send(server, provision({ requestState: "x" })),
      logger,
      "requestState rejected on tools/call: codec error",
    );
  });

  it("sends a codec's own reject reason to the log but never to the wire", async () => {
    const { server, logger } = codecServer({
      seal: () => "x",
      unseal: () => {
        throw new InvalidRequestState("rejected", { detail: "revoked by kms" });
      },
    });
    const response = await send(server, provision({ requestState: "x" }));
    expectFrozenRefusal(response, logger, "requestState rejected on tools/call: rejected (revoked by kms)");
    expect(logger.lines.at(-1)?.fields).toEqual({
      method: "tools/call",
      reason: "rejected",
      detail: "revoked by kms",
    });
    expect(JSON.stringify(response)).not.toContain("revoked");
  });

  it("answers a sanitized internal error when seal throws", async () => {
    const { server, logger } = codecServer({
      seal: () => {
        throw new Error("kms unreachable: key arn:secret");
      },
      unseal: () => new Uint8Array(),
    });
    const response = await send(server, provision());
    expect(errorOf(response)).toStrictEqual({ code: -32603, message: "Internal error" });
    expect(logger.lines).toEqual([
      {
        level: "error",
        message: "refusing to seal requestState on tools/call: codec error",
        fields: { method: "tools/call", reason: "codec error", cause: "Error" },
      },
    ]);
  });

  it("answers a sanitized internal error when seal returns a non-string", async () => {
    const { server, logger } = codecServer({
      seal: () => 7 as unknown as string,
      unseal: () => new Uint8Array(),
    });
    expect(errorOf(await send(server, provision()))).toStrictEqual({
      code: -32603,
      message: "Internal error",
    });
    expect(logger.messages).toEqual([
      "refusing to seal requestState on tools/call: codec error (codec.seal returned number, expected a string)",
    ]);
  });

  it("refuses arguments nested too deeply to bind the state to as invalid params, not an internal error", async () => {
    const { server, logger } = setup();
    let deep: unknown = "leaf";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const response = await send(server, provision({ arguments: { name: "orders", deep } }));
    expect(errorOf(response)).toStrictEqual({
      code: -32602,
      message: "Invalid params: the arguments cannot be serialised to bind requestState to them",
    });
    expect(logger.lines).toEqual([
      {
        level: "warn",
        message: "refusing to seal requestState on tools/call: request binding",
        fields: { method: "tools/call", reason: "request binding", cause: "RangeError" },
      },
    ]);
  });

  it("refuses a sealed envelope of an unknown version, and a version-1 JSON envelope, as malformed", async () => {
    const { server, logger, clock } = setup();
    const codec = new AesGcmRequestStateCodec([KEY_A]);
    const claims = {
      issuedAtMs: clock.nowMs,
      expiresAtMs: clock.nowMs + 600_000,
      binding: requestBinding("tools/call", { name: "provision", arguments: { name: "orders" } }),
      state: "step-1",
      audience: "Provisioner",
      principalClaim: undefined,
    };
    const current = Buffer.from(encodeClaims(claims));
    expect(textOf(await send(server, provision({ requestState: codec.seal(current) }, 2)))).toBe(
      "done after step-1",
    );
    const unknown = [1, 0, REQUEST_STATE_ENVELOPE_VERSION + 1, 0xff].map((version) => {
      const payload = Buffer.from(current);
      payload[0] = version;
      return payload;
    });
    const versionOne = Buffer.from(
      JSON.stringify({
        v: 1,
        iat: clock.nowMs,
        exp: clock.nowMs + 600_000,
        m: "tools/call",
        t: "provision",
        a: claims.binding.argumentsDigest,
        s: "step-1",
        aud: "Provisioner",
      }),
    );
    for (const payload of [...unknown, versionOne]) {
      logger.clear();
      expectFrozenRefusal(
        await send(server, provision({ requestState: codec.seal(payload) }, 3)),
        logger,
        "requestState rejected on tools/call: malformed",
      );
    }
  });

  it("refuses codec-authenticated bytes that are not a claims envelope", async () => {
    const payloads = [
      "not json",
      "{}",
      '{"v":2,"iat":0,"exp":1e20,"s":"x"}',
      '{"v":1,"iat":0,"exp":1e20,"s":5}',
    ];
    for (const payload of payloads) {
      const { server, logger } = codecServer({ seal: () => "x", unseal: () => Buffer.from(payload) });
      expectFrozenRefusal(
        await send(server, provision({ requestState: "x" })),
        logger,
        "requestState rejected on tools/call: malformed",
      );
    }
  });
});

describe("lone surrogates", () => {
  it("digests lone-surrogate arguments instead of crashing", async () => {
    const { server } = setup();
    const args = { name: "orders\uD800", note: "\uDFFF" };
    const token = stateOf(await send(server, provision({ arguments: args })));
    expect(textOf(await send(server, provision({ arguments: args, requestState: token }, 2)))).toBe(
      "done after step-1",
    );
    const other = await send(
      server,
      provision({ arguments: { ...args, note: "\uDFFE" }, requestState: token }, 3),
    );
    expect(errorOf(other).code).toBe(-32602);
  });

  it("seals and restores a lone-surrogate handler state", async () => {
    const odd = "state-\uD83D-\uDE00-end";
    const seen: unknown[] = [];
    const server = new Server("Odd", {
      onCallTool: (_ctx, params) => {
        seen.push(params.requestState);
        return params.requestState === undefined
          ? inputRequired({ requestState: odd })
          : { content: [{ type: "text", text: "ok" }] };
      },
    });
    server.use(
      requestStateBoundary(new RequestStateSecurity({ keys: [KEY_A] }), { defaultAudience: server.name }),
    );
    const transport = new InMemoryTransport(server);
    const token = stateOf(await transport.request(request("tools/call", { name: "t" })));
    await transport.request(request("tools/call", { name: "t", requestState: token }, 2));
    expect(seen).toEqual([undefined, odd]);
  });
});
