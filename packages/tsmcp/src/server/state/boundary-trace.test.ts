import { describe, expect, it } from "vitest";
import { setUpOtel } from "../../../../../test/helpers/otel.js";
import type { ElicitResult } from "../../protocol/schema/input.js";
import { inputRequired } from "../input-required.js";
import {
  handshake,
  legacyEnv,
  legacyRequest,
  resultOf as legacyResultOf,
  tableBackChannel,
  testSession,
} from "../legacy/legacy-test-fixtures.js";
import type { Middleware } from "../middleware.js";
import { attachRequestTrace, type CarriedTrace, type RequestTrace } from "../request-trace.js";
import { Server } from "../server.js";
import { AesGcmRequestStateCodec } from "./aes-gcm-codec.js";
import { requestStateBoundary } from "./boundary.js";
import { encodeClaims, openClaims, requestBinding } from "./claims.js";
import type { RequestStateCodec } from "./codec.js";
import { RequestStateSecurity } from "./policy.js";
import {
  ASK_REGION,
  CapturingLogger,
  errorOf,
  flowServer,
  KEY_A,
  ManualClock,
  request,
  send,
  stateOf,
  T0_MS,
  textOf,
} from "./state-test-fixtures.js";

/**
 * A request trace as the server's spans keep it: its own span until told which first leg it
 * continues, its round 1 until then; every call recorded in `events`.
 */
class TestTrace implements RequestTrace {
  round = 1;
  #first: { traceId: string; spanId: string; traceFlags: number };

  constructor(
    own: { traceId: string; spanId: string },
    private readonly events: unknown[],
  ) {
    this.#first = { ...own, traceFlags: 1 };
  }

  continueFrom(carried: CarriedTrace): void {
    this.events.push(["continueFrom", carried]);
    this.#first = { traceId: carried.traceId, spanId: carried.spanId, traceFlags: carried.traceFlags };
    this.round = carried.round + 1;
  }

  toCarry(): CarriedTrace | undefined {
    const carry = { ...this.#first, round: this.round };
    this.events.push(["toCarry", carry]);
    return carry;
  }
}

/** Middleware that attaches a fresh {@link TestTrace} to each request, leg n with span id `n...`. */
function tracing(events: unknown[], make?: (leg: number) => RequestTrace): Middleware {
  let leg = 0;
  return (request, next) => {
    leg++;
    const trace =
      make?.(leg) ??
      new TestTrace({ traceId: `${leg}`.repeat(32).slice(0, 32), spanId: `${leg}`.repeat(16) }, events);
    attachRequestTrace(request.context, trace);
    return next(request);
  };
}

/** Middleware that records when the rest of the chain runs. */
function marker(events: unknown[]): Middleware {
  return (request, next) => {
    events.push(["handler", request.params.requestState]);
    return next(request);
  };
}

/** The built-in codec, keeping every payload it seals. */
class RecordingCodec implements RequestStateCodec {
  readonly payloads: Buffer[] = [];
  readonly #inner = new AesGcmRequestStateCodec([KEY_A]);
  seal(payload: Uint8Array): string {
    this.payloads.push(Buffer.from(payload));
    return this.#inner.seal(payload);
  }
  unseal(token: string): Uint8Array {
    return this.#inner.unseal(token);
  }
}

function policyWith(codec: RequestStateCodec, clock = new ManualClock()) {
  return new RequestStateSecurity({ codec, clock, logger: new CapturingLogger() });
}

/** A `flowServer` of `rounds` rounds with `before` installed ahead of the boundary and `after` behind it. */
function tracedServer(
  policy: RequestStateSecurity,
  before: Middleware[],
  after: Middleware[] = [],
  rounds = 3,
) {
  const { server } = flowServer(undefined, { rounds });
  for (const middleware of before) server.use(middleware);
  server.use(requestStateBoundary(policy, { defaultAudience: "Provisioner" }));
  for (const middleware of after) server.use(middleware);
  return server;
}

const provision = (params: Record<string, unknown> = {}, id: string | number = 1) =>
  request("tools/call", { name: "provision", arguments: { name: "orders" }, ...params }, id);

const BINDING = requestBinding("tools/call", { name: "provision", arguments: { name: "orders" } });
const EXPECTATION = {
  nowMs: T0_MS,
  binding: BINDING,
  audience: "Provisioner",
  principal: (): string | undefined => undefined,
};

describe("the boundary carrying a request's trace", () => {
  it("tells each next leg to continue from what the previous leg's toCarry gave, before the chain runs", async () => {
    const events: unknown[] = [];
    const codec = new RecordingCodec();
    const server = tracedServer(policyWith(codec), [tracing(events)], [marker(events)]);
    const first = stateOf(await send(server, provision()));
    const second = stateOf(await send(server, provision({ requestState: first }, 2)));
    expect(textOf(await send(server, provision({ requestState: second }, 3)))).toBe("done after step-2");
    const leg1 = { traceId: "1".repeat(32), spanId: "1".repeat(16), traceFlags: 1 };
    expect(events).toEqual([
      ["handler", undefined],
      ["toCarry", { ...leg1, round: 1 }],
      ["continueFrom", { ...leg1, round: 1 }],
      ["handler", "step-1"],
      ["toCarry", { ...leg1, round: 2 }],
      ["continueFrom", { ...leg1, round: 2 }],
      ["handler", "step-2"],
    ]);
    expect(codec.payloads.map((payload) => openClaims(payload, EXPECTATION).trace)).toEqual([
      { ...leg1, round: 1 },
      { ...leg1, round: 2 },
    ]);
  });

  it("seals byte-identical envelopes when no trace is attached or it has nothing to carry", async () => {
    const plain = new RecordingCodec();
    stateOf(await send(tracedServer(policyWith(plain), []), provision()));
    const empty = new RecordingCodec();
    const nothing: RequestTrace = { round: 1, continueFrom: () => {}, toCarry: () => undefined };
    stateOf(await send(tracedServer(policyWith(empty), [tracing([], () => nothing)]), provision()));
    const expected = encodeClaims({
      issuedAtMs: T0_MS,
      expiresAtMs: T0_MS + 600_000,
      binding: BINDING,
      state: "step-1",
      audience: "Provisioner",
      principalClaim: undefined,
    });
    expect(plain.payloads).toHaveLength(1);
    expect(plain.payloads[0]?.toString("hex")).toBe(Buffer.from(expected).toString("hex"));
    expect(empty.payloads[0]?.toString("hex")).toBe(Buffer.from(expected).toString("hex"));
  });

  it("carries nothing for a trace context that is not valid, and still answers", async () => {
    const codec = new RecordingCodec();
    const invalid: RequestTrace = {
      round: 1,
      continueFrom: () => {},
      toCarry: () => ({ traceId: "0".repeat(32), spanId: "0".repeat(16), traceFlags: 0, round: 1 }),
    };
    const server = tracedServer(policyWith(codec), [tracing([], () => invalid)]);
    const token = stateOf(await send(server, provision()));
    expect(codec.payloads[0]?.[1]).toBe(1);
    expect(stateOf(await send(server, provision({ requestState: token }, 2)))).toEqual(expect.any(String));
  });

  it("opens a state carrying a trace on a server sharing the keys that records nothing", async () => {
    const clock = new ManualClock();
    const traced = tracedServer(policyWith(new RecordingCodec(), clock), [tracing([])], [], 2);
    const untraced = tracedServer(policyWith(new RecordingCodec(), clock), [], [], 2);
    const token = stateOf(await send(traced, provision()));
    expect(textOf(await send(untraced, provision({ requestState: token }, 2)))).toBe("done after step-1");
  });

  it("continues from a carried trace only once the state verified", async () => {
    const events: unknown[] = [];
    const clock = new ManualClock();
    const server = tracedServer(policyWith(new RecordingCodec(), clock), [tracing(events)], [marker(events)]);
    const token = stateOf(await send(server, provision()));
    events.length = 0;
    expect(
      errorOf(await send(server, provision({ requestState: token, arguments: { name: "x" } }, 2))).code,
    ).toBe(-32602);
    clock.nowMs += 600_000;
    expect(errorOf(await send(server, provision({ requestState: token }, 3))).code).toBe(-32602);
    expect(events).toEqual([]);
  });

  it("does not move a carried trace into another call: the state is refused with other arguments", async () => {
    const events: unknown[] = [];
    const server = tracedServer(policyWith(new RecordingCodec()), [tracing(events)]);
    const token = stateOf(await send(server, provision()));
    const other = request("tools/call", {
      name: "provision",
      arguments: { name: "billing" },
      requestState: token,
    });
    expect(errorOf(await send(server, other)).code).toBe(-32602);
    expect(events.filter((event) => (event as unknown[])[0] === "continueFrom")).toEqual([]);
  });
});

describe("the boundary on a 2025-era session fulfilling an InputRequiredResult in-process", () => {
  it("seals the trace into each round's state but never tells the request to continue from itself", async () => {
    const events: unknown[] = [];
    const server = new Server("Provisioner", {
      legacyInputRequired: "fulfil",
      onCallTool: (_ctx, params) => {
        if (params.requestState === undefined) {
          return inputRequired({ inputRequests: { region: ASK_REGION }, requestState: "step-1" });
        }
        const region = (params.inputResponses as Record<string, ElicitResult>).region?.content?.region;
        return { content: [{ type: "text", text: `provisioned in ${String(region)}` }] };
      },
    })
      .use(tracing(events))
      .use(requestStateBoundary(policyWith(new RecordingCodec()), { defaultAudience: "Provisioner" }));
    const session = testSession();
    await handshake(server, session, { elicitation: {} });
    const back = tableBackChannel({
      "elicitation/create": () => ({ action: "accept", content: { region: "eu" } }),
    });
    events.length = 0;
    const response = await server.handle(
      legacyRequest("tools/call", { name: "provision" }),
      legacyEnv(session, { request: back }),
    );
    expect(legacyResultOf(response)).toEqual({ content: [{ type: "text", text: "provisioned in eu" }] });
    expect(events).toEqual([
      ["toCarry", { traceId: "1".repeat(32), spanId: "1".repeat(16), traceFlags: 1, round: 1 }],
    ]);
  });

  it("records one span with no link to itself when the server's own spans record the request", async () => {
    const otel = setUpOtel();
    try {
      const server = new Server("Provisioner", {
        legacyInputRequired: "fulfil",
        telemetry: otel.telemetry,
        onCallTool: (_ctx, params) =>
          params.requestState === undefined
            ? inputRequired({ inputRequests: { region: ASK_REGION }, requestState: "step-1" })
            : { content: [{ type: "text", text: "provisioned" }] },
      }).use(requestStateBoundary(policyWith(new RecordingCodec()), { defaultAudience: "Provisioner" }));
      const session = testSession();
      await handshake(server, session, { elicitation: {} });
      otel.reset();
      const back = tableBackChannel({
        "elicitation/create": () => ({ action: "accept", content: { region: "eu" } }),
      });
      const response = await server.handle(
        legacyRequest("tools/call", { name: "provision" }),
        legacyEnv(session, { request: back }),
      );
      expect(legacyResultOf(response)).toEqual({ content: [{ type: "text", text: "provisioned" }] });
      const calls = otel.spans().filter((span) => span.attributes["mcp.method.name"] === "tools/call");
      expect(calls).toHaveLength(1);
      expect(calls[0]?.links).toEqual([]);
      expect(calls[0]?.attributes["tsmcp.mrtr.round"]).toBe(1);
    } finally {
      await otel.teardown();
    }
  });
});
