/**
 * The client's span and duration of one message it sends: a CLIENT span per request (named
 * `{method} {tool or prompt}`), whose trace context travels in the request's `_meta`, and one
 * `mcp.client.operation.duration` measure. Nothing the caller passed is recorded beyond the method,
 * the tool or prompt name, the resource URI and the keys (never the values) of `inputResponses`.
 * Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
 */
import type { Attributes, AttributeValue, Context, Span } from "@opentelemetry/api";
import { McpError } from "../protocol/errors.js";
import type { RequestId } from "../protocol/jsonrpc.js";
import { SEMCONV, TSMCP_ATTRIBUTES } from "../telemetry/attributes.js";
import { injectContext } from "../telemetry/propagation.js";
import {
  errorTypeOf,
  MRTR_METHODS,
  resourceUriOf,
  resultTypeOf,
  spanNameOf,
  targetAttributes,
  targetOf,
} from "../telemetry/targets.js";
import type { Telemetry } from "../telemetry/telemetry.js";
import type { Transport } from "../transport/transport.js";

/** The context slot the multi round-trip loop puts a leg's round in (read when the leg starts). */
export const ROUND_KEY: symbol = Symbol.for("tsmcp.mrtr.round");

/** What a client's spans say about the server it talks to. */
export interface Peer {
  readonly transport: "tcp" | "pipe" | undefined;
  readonly address: string | undefined;
  readonly port: number | undefined;
}

/** The peer attributes of `transport`: its network transport and, for an HTTP URL, host and port. */
export function peerOf(transport: Transport): Peer {
  const url = (transport as { url?: unknown }).url;
  const http = url instanceof URL;
  return {
    transport: transport.networkTransport,
    address: http ? url.hostname.replace(/^\[|\]$/g, "") : undefined,
    port: http ? Number(url.port || (url.protocol === "https:" ? 443 : 80)) : undefined,
  };
}

/** Where one request goes and in which era. */
export interface RequestFacts {
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly id: RequestId | undefined;
  readonly protocolVersion: string;
  readonly legacy: boolean;
  /** The hashed 2025-era session id, when there is one. */
  readonly sessionHash: string | undefined;
}

/** The span and start time of one message in flight. */
export interface SentRecord {
  readonly span: Span;
  /** The context of the span, to inject into `_meta` and to run nested work in. */
  readonly context: Context;
  readonly startMs: number;
  readonly metricAttributes: Attributes;
}

function set(attributes: Attributes, key: string, value: AttributeValue | undefined): void {
  if (value !== undefined) attributes[key] = value;
}

/**
 * Starts the CLIENT span of one request or notification, a child of the active context, and
 * writes its trace context into `meta` (an object the session owns, never the caller's).
 */
export function startSent(
  telemetry: Telemetry,
  peer: Peer,
  facts: RequestFacts,
  meta: Record<string, unknown>,
): SentRecord {
  const { api } = telemetry;
  const parent = api.context.active();
  const { method, params } = facts;
  const target = targetOf(method, params);
  const metricAttributes = targetAttributes(method, target);
  metricAttributes[SEMCONV.protocolVersion] = facts.protocolVersion;
  set(metricAttributes, SEMCONV.networkTransport, peer.transport);
  const span = telemetry.tracer.startSpan(spanNameOf(method, target), { kind: api.SpanKind.CLIENT }, parent);
  if (span.isRecording()) {
    const attributes: Attributes = { ...metricAttributes };
    set(attributes, SEMCONV.resourceUri, resourceUriOf(method, params));
    set(attributes, SEMCONV.requestId, facts.id === undefined ? undefined : String(facts.id));
    attributes[TSMCP_ATTRIBUTES.era] = facts.legacy ? "handshake" : "stateless";
    set(attributes, SEMCONV.serverAddress, peer.address);
    set(attributes, SEMCONV.serverPort, peer.port);
    set(attributes, SEMCONV.sessionId, facts.sessionHash);
    if (MRTR_METHODS.has(method)) {
      const round = parent.getValue(ROUND_KEY);
      set(attributes, TSMCP_ATTRIBUTES.round, typeof round === "number" ? round : undefined);
      const responses = params.inputResponses;
      if (typeof responses === "object" && responses !== null) {
        attributes[TSMCP_ATTRIBUTES.inputKeys] = Object.keys(responses);
      }
    }
    span.setAttributes(attributes);
  }
  const context = api.trace.setSpan(parent, span);
  injectContext(api, context, meta);
  return { span, context, startMs: performance.now(), metricAttributes };
}

/** Ends a request's span with its result, and records its duration. */
export function endSent(telemetry: Telemetry, record: SentRecord, result: Record<string, unknown>): void {
  const { span, metricAttributes } = record;
  const resultType = resultTypeOf(result);
  metricAttributes[TSMCP_ATTRIBUTES.resultType] = resultType;
  const toolError = result.isError === true && metricAttributes[SEMCONV.toolName] !== undefined;
  if (toolError) metricAttributes[SEMCONV.errorType] = "tool_error";
  if (span.isRecording()) {
    span.setAttribute(TSMCP_ATTRIBUTES.resultType, resultType);
    if (resultType === "input_required") {
      const asked = result.inputRequests;
      span.setAttribute(
        TSMCP_ATTRIBUTES.requestedKeys,
        typeof asked === "object" && asked !== null ? Object.keys(asked) : [],
      );
    }
    if (toolError) {
      span.setAttribute(SEMCONV.errorType, "tool_error");
      span.setStatus({ code: telemetry.api.SpanStatusCode.ERROR });
    }
  }
  finish(telemetry, record);
}

/**
 * Marks `span` failed with `error`: `error.type`, `rpc.response.status_code` for a JSON-RPC error,
 * status ERROR with the error's message; fills the same keys into `metricAttributes`.
 */
export function failSpan(
  telemetry: Telemetry,
  span: Span,
  metricAttributes: Attributes,
  error: unknown,
): void {
  const errorType = errorTypeOf(error);
  metricAttributes[SEMCONV.errorType] = errorType;
  if (error instanceof McpError) metricAttributes[SEMCONV.statusCode] = errorType;
  if (!span.isRecording()) return;
  span.setAttribute(SEMCONV.errorType, errorType);
  if (error instanceof McpError) span.setAttribute(SEMCONV.statusCode, errorType);
  span.setStatus({
    code: telemetry.api.SpanStatusCode.ERROR,
    ...(error instanceof Error ? { message: error.message } : {}),
  });
}

/** Ends a request's span with its failure, and records its duration. */
export function failSent(telemetry: Telemetry, record: SentRecord, error: unknown): void {
  failSpan(telemetry, record.span, record.metricAttributes, error);
  finish(telemetry, record);
}

/** Ends a notification's span (nothing comes back), and records its duration. */
export function finish(telemetry: Telemetry, record: SentRecord): void {
  record.span.end();
  telemetry
    .instruments()
    .operationDuration.record((performance.now() - record.startMs) / 1000, record.metricAttributes);
}
