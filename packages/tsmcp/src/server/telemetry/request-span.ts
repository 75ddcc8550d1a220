/**
 * The span of one request or notification a server receives (kind SERVER), named and attributed
 * per the OpenTelemetry MCP semantic conventions, and its `mcp.server.operation.duration` and
 * `tsmcp.mrtr.rounds` measurements.
 *
 * Its start is deferred: the start time is taken when the message arrives, the span is created
 * on first need (the requestState boundary's `continueFrom`, the handler about to run, or the end
 * of the request), because only the boundary can open the sealed `requestState` that says which
 * first leg a multi round-trip leg continues. Parent: the remote context of `_meta` (else the HTTP
 * headers) > the carried first leg > the ambient context; a later leg always links to the carried
 * first leg, and a span whose parent is not the ambient one links the ambient span.
 *
 * Never recorded: params, arguments, answers, `inputRequests` contents, `requestState`, tokens.
 * Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
 */
import type { Attributes, Context, Link, Span, SpanContext } from "@opentelemetry/api";
import { ERRORS, McpError } from "../../protocol/errors.js";
import type { JSONRPCNotification, JSONRPCRequest } from "../../protocol/jsonrpc.js";
import { SEMCONV, TSMCP_ATTRIBUTES } from "../../telemetry/attributes.js";
import { extractRemoteContext } from "../../telemetry/propagation.js";
import {
  MRTR_METHODS,
  methodNameOf,
  type ResultType,
  resourceUriOf,
  resultTypeOf,
  spanNameOf,
  targetAttributes,
  targetOf,
} from "../../telemetry/targets.js";
import type { Telemetry } from "../../telemetry/telemetry.js";
import type { RequestEnvironment } from "../../transport/dispatcher.js";
import type { RequestContext } from "../context.js";
import type { WireResult } from "../middleware.js";
import { attachRequestTrace, type Carried, type CarriedTrace, type RequestTrace } from "../request-trace.js";
import { type BackChannelParent, traceBackChannel } from "./back-channel-span.js";
import { hashedSessionId } from "./session.js";

/** The most `inputResponses` keys `tsmcp.mrtr.input_keys` lists: the client chooses them. */
const MAX_INPUT_KEYS = 64;
/** The most characters of one key `tsmcp.mrtr.input_keys` keeps. */
const MAX_INPUT_KEY_LENGTH = 64;

/** The first {@link MAX_INPUT_KEYS} keys of `answered`, each cut to {@link MAX_INPUT_KEY_LENGTH} characters. */
function cappedKeys(answered: Record<string, unknown>): string[] {
  const keys: string[] = [];
  for (const key in answered) {
    if (!Object.hasOwn(answered, key)) continue;
    if (keys.length === MAX_INPUT_KEYS) break;
    keys.push(key.length > MAX_INPUT_KEY_LENGTH ? key.slice(0, MAX_INPUT_KEY_LENGTH) : key);
  }
  return keys;
}

/** `tsmcp.era`: the 2026-07-28 wire, or a 2025-era session. */
export type Era = "stateless" | "handshake";

function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

function objectOr(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** One request's (or notification's) span record; the {@link RequestTrace} the boundary sees. */
export class RequestSpan implements RequestTrace, BackChannelParent {
  round = 1;
  readonly #telemetry: Telemetry;
  readonly #message: JSONRPCRequest | JSONRPCNotification;
  readonly #env: RequestEnvironment;
  readonly #era: Era;
  readonly #ambient: Context;
  readonly #startMs: number;
  /** The tool or prompt name the client gave; dropped when the request is refused as invalid params. */
  #target: string | undefined;
  #carried: CarriedTrace | undefined;
  #span: Span | undefined;
  #active: Context | undefined;
  #result: WireResult | undefined;
  #protocolVersion: string | undefined;

  constructor(
    telemetry: Telemetry,
    message: JSONRPCRequest | JSONRPCNotification,
    env: RequestEnvironment,
    era: Era,
  ) {
    this.#telemetry = telemetry;
    this.#message = message;
    this.#env = env;
    this.#era = era;
    this.#startMs = nowMs();
    this.#ambient = telemetry.api.context.active();
    const { method } = message;
    this.#target = targetOf(method, message.params);
    if (env.session !== undefined) traceBackChannel(env, this);
  }

  get telemetry(): Telemetry {
    return this.#telemetry;
  }

  /** The context holding this request's span: its back-channel requests' parent. */
  activeContext(): Context {
    this.span();
    return this.#active as Context;
  }

  /** Ties this record to the request context middleware and handlers see. */
  attach(context: RequestContext): void {
    this.#protocolVersion = context.protocolVersion;
    attachRequestTrace(context, this);
  }

  /** Keeps the result the middleware chain answered (the last one, when it ran more than once). */
  observe(result: WireResult): void {
    this.#result = result;
  }

  continueFrom(carried: Carried): void {
    this.round = carried.round + 1;
    const span = this.#span;
    if (span?.isRecording() === true && MRTR_METHODS.has(this.#message.method)) {
      span.setAttribute(TSMCP_ATTRIBUTES.round, this.round);
    }
    if (carried.traceId === undefined) return;
    if (!this.#telemetry.api.trace.isSpanContextValid(carriedSpanContext(carried))) return;
    this.#carried = carried;
    // The span started before the boundary spoke: it keeps its parent and links the first leg.
    span?.addLink({ context: carriedSpanContext(carried) });
  }

  toCarry(): Carried {
    const carried = this.#carried;
    if (carried !== undefined) return { ...carried, round: this.round };
    // Any valid context, sampled out or not: the next legs keep the sampler's decision and trace id.
    const context = this.span().spanContext();
    if (!this.#telemetry.api.trace.isSpanContextValid(context)) return { round: this.round };
    const { traceId, spanId, traceFlags } = context;
    return { traceId, spanId, traceFlags, round: this.round };
  }

  /** Runs `fn` with this request's span active, so spans `fn` starts nest under it. */
  run<T>(fn: () => T): T {
    this.span();
    return this.#telemetry.api.context.with(this.#active as Context, fn);
  }

  /** The span, created now (with the arrival time as its start) when it was not yet. */
  span(): Span {
    if (this.#span !== undefined) return this.#span;
    const { api, tracer } = this.#telemetry;
    const links: Link[] = [];
    const carried = this.#carried;
    const remote = extractRemoteContext(api, objectOr(this.#message.params?._meta), this.#env.headers);
    const remoteSpan = remote === undefined ? undefined : api.trace.getSpanContext(remote);
    let parent = this.#ambient;
    if (remote !== undefined && remoteSpan !== undefined && api.trace.isSpanContextValid(remoteSpan)) {
      parent = remote;
    } else if (carried !== undefined) {
      parent = api.trace.setSpanContext(this.#ambient, carriedSpanContext(carried));
    }
    const ambientSpan = api.trace.getSpanContext(this.#ambient);
    if (parent !== this.#ambient && ambientSpan !== undefined && api.trace.isSpanContextValid(ambientSpan)) {
      links.push({ context: ambientSpan });
    }
    if (carried !== undefined) links.push({ context: carriedSpanContext(carried) });
    const method = methodNameOf(this.#message.method);
    const span = tracer.startSpan(
      spanNameOf(method, this.#target),
      { kind: api.SpanKind.SERVER, startTime: this.#startMs, links },
      parent,
    );
    if (span.isRecording()) span.setAttributes(this.#startAttributes());
    this.#span = span;
    this.#active = api.trace.setSpan(parent, span);
    return span;
  }

  /** Ends the span with the observed result (a notification has none) and records the duration. */
  complete(): void {
    const result = this.#result;
    const resultType = result === undefined || !("id" in this.#message) ? undefined : resultTypeOf(result);
    const toolError =
      this.#message.method === "tools/call" && result !== undefined && result.isError === true;
    const span = this.span();
    if (span.isRecording()) {
      if (resultType !== undefined) span.setAttribute(TSMCP_ATTRIBUTES.resultType, resultType);
      if (resultType === "input_required") {
        const keys = Object.keys(objectOr(result?.inputRequests) ?? {});
        span.setAttribute(TSMCP_ATTRIBUTES.requestedKeys, keys);
      }
      if (toolError) {
        span.setAttribute(SEMCONV.errorType, "tool_error");
        span.setStatus({ code: this.#telemetry.api.SpanStatusCode.ERROR });
      }
    }
    this.#finish(span, resultType, toolError ? "tool_error" : undefined, undefined);
  }

  /**
   * Ends the span with the error `thrown` answers as: `toWire` (which logs what it must) runs
   * inside the span's context, so its log lines carry the span's ids. A request refused as invalid
   * params (-32602: an unknown tool or prompt, bad arguments) loses its client-chosen target: its
   * span is named by the method alone and its duration carries no tool or prompt name, so names a
   * client makes up never become span names or metric series.
   */
  failWith(thrown: unknown, toWire: (thrown: unknown) => McpError): McpError {
    if (thrown instanceof McpError && thrown.code === ERRORS.INVALID_PARAMS.code) this.#dropTarget();
    const wire = this.run(() => toWire(thrown));
    this.fail(wire, thrown);
    return wire;
  }

  #dropTarget(): void {
    if (this.#target === undefined) return;
    this.#target = undefined;
    this.#span?.updateName(methodNameOf(this.#message.method));
  }

  /**
   * Ends the span with the error answered: its code as `rpc.response.status_code` and
   * `error.type`, its wire message as the status description; `cause`, what was thrown, is
   * recorded as an exception when it was unexpected (answered -32603).
   */
  fail(error: McpError, thrown: unknown): void {
    if (error.code === ERRORS.INVALID_PARAMS.code) this.#dropTarget();
    const span = this.span();
    const code = String(error.code);
    if (span.isRecording()) {
      span.setAttributes({ [SEMCONV.statusCode]: code, [SEMCONV.errorType]: code });
      span.setStatus({ code: this.#telemetry.api.SpanStatusCode.ERROR, message: error.message });
      const unexpected =
        thrown !== error ? thrown : error.code === ERRORS.INTERNAL_ERROR.code ? error.cause : undefined;
      if (unexpected !== undefined) {
        span.recordException(unexpected instanceof Error ? unexpected : String(unexpected));
      }
    }
    this.#finish(span, undefined, code, code);
  }

  #finish(span: Span, resultType: ResultType | undefined, errorType?: string, statusCode?: string): void {
    const version = this.#protocolVersion ?? this.#env.session?.handshake?.protocolVersion;
    if (span.isRecording()) {
      if (version !== undefined) span.setAttribute(SEMCONV.protocolVersion, version);
      // Set only now: a target refused as invalid params never reaches the span.
      const named: Attributes = {};
      this.#targetAttributes(named);
      span.setAttributes(named);
    }
    span.end();
    const durationS = (nowMs() - this.#startMs) / 1000;
    const { method } = this.#message;
    const attributes: Attributes = { [SEMCONV.methodName]: methodNameOf(method) };
    this.#targetAttributes(attributes);
    if (version !== undefined) attributes[SEMCONV.protocolVersion] = version;
    if (this.#env.networkTransport !== undefined) {
      attributes[SEMCONV.networkTransport] = this.#env.networkTransport;
    }
    if (resultType !== undefined) attributes[TSMCP_ATTRIBUTES.resultType] = resultType;
    if (errorType !== undefined) attributes[SEMCONV.errorType] = errorType;
    if (statusCode !== undefined) attributes[SEMCONV.statusCode] = statusCode;
    const instruments = this.#telemetry.instruments();
    instruments.operationDuration.record(durationS, attributes);
    if (MRTR_METHODS.has(method) && errorType === undefined && resultType !== undefined) {
      if (resultType !== "input_required") {
        const roundAttributes: Attributes = { [SEMCONV.methodName]: method };
        this.#targetAttributes(roundAttributes);
        instruments.rounds.record(this.round, roundAttributes);
      }
    }
  }

  /** `mcp.method.name` and the target's `gen_ai.tool.name` (with `gen_ai.operation.name`) or `gen_ai.prompt.name`. */
  #targetAttributes(attributes: Attributes): void {
    targetAttributes(methodNameOf(this.#message.method), this.#target, attributes);
  }

  #startAttributes(): Attributes {
    const message = this.#message;
    const { method } = message;
    const attributes: Attributes = {
      [SEMCONV.methodName]: methodNameOf(method),
      [TSMCP_ATTRIBUTES.era]: this.#era,
    };
    if ("id" in message) attributes[SEMCONV.requestId] = String(message.id);
    if (method === "tools/call") attributes[SEMCONV.operationName] = "execute_tool";
    if (this.#env.networkTransport !== undefined) {
      attributes[SEMCONV.networkTransport] = this.#env.networkTransport;
    }
    const session = this.#env.session;
    if (session?.id !== undefined) attributes[SEMCONV.sessionId] = hashedSessionId(session, session.id);
    const uri = resourceUriOf(method, message.params);
    if (uri !== undefined) attributes[SEMCONV.resourceUri] = uri;
    if (MRTR_METHODS.has(method) && "id" in message) {
      attributes[TSMCP_ATTRIBUTES.round] = this.round;
      const answered = objectOr(message.params?.inputResponses);
      // Read before the requestState is verified, so capped: the client chooses how many and how long.
      if (answered !== undefined) attributes[TSMCP_ATTRIBUTES.inputKeys] = cappedKeys(answered);
    }
    return attributes;
  }
}

function carriedSpanContext(carried: CarriedTrace): SpanContext {
  return {
    traceId: carried.traceId,
    spanId: carried.spanId,
    traceFlags: carried.traceFlags,
    isRemote: true,
  };
}
