/**
 * The server's span for each request it sends a client over a 2025-era session's back-channel
 * (`elicitation/create`, `sampling/createMessage`, `roots/list`, `ping`) while serving a request
 * whose span records: kind CLIENT, named by the method, the child of the served request's span,
 * and its trace context written into the request's `_meta` (a copy of the params), so the client's
 * span answering it continues the server's trace. Never recorded: params, answers.
 * Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/ §Context propagation.
 */
import type { Attributes, Context } from "@opentelemetry/api";
import { McpError } from "../../protocol/errors.js";
import { SEMCONV, TSMCP_ATTRIBUTES } from "../../telemetry/attributes.js";
import { injectContext } from "../../telemetry/propagation.js";
import { errorTypeOf } from "../../telemetry/targets.js";
import type { Telemetry } from "../../telemetry/telemetry.js";
import type {
  BackChannelRequest,
  BackChannelSendOptions,
  RequestEnvironment,
} from "../../transport/dispatcher.js";
import { hashedSessionId } from "./session.js";

/** The served request's span, as its back-channel requests see it. */
export interface BackChannelParent {
  readonly telemetry: Telemetry;
  /** The context holding the served request's span (created now if it was not yet). */
  activeContext(): Context;
}

const parents = new WeakMap<RequestEnvironment, BackChannelParent>();

/** Makes the back-channel requests of the request `env` belongs to children of `parent`'s span. */
export function traceBackChannel(env: RequestEnvironment, parent: BackChannelParent): void {
  if (env.request !== undefined) parents.set(env, parent);
}

/**
 * The back-channel of `env`: `env.request` itself when nothing records the request, else one that
 * sends each request inside a CLIENT span. `undefined` without a back-channel.
 */
export function backChannelOf(env: RequestEnvironment): BackChannelRequest | undefined {
  const send = env.request;
  if (send === undefined) return undefined;
  const parent = parents.get(env);
  if (parent === undefined) return send;
  return (method, params, options) => sendTraced(parent, env, send, method, params, options);
}

async function sendTraced(
  parent: BackChannelParent,
  env: RequestEnvironment,
  send: BackChannelRequest,
  method: string,
  params: Record<string, unknown> | undefined,
  options: BackChannelSendOptions | undefined,
): Promise<Record<string, unknown>> {
  const { api, tracer } = parent.telemetry;
  const served = parent.activeContext();
  const span = tracer.startSpan(method, { kind: api.SpanKind.CLIENT }, served);
  if (span.isRecording()) span.setAttributes(startAttributes(env, method));
  const meta: Record<string, unknown> = { ...objectOr(params?._meta) };
  const before = Object.keys(meta).length;
  injectContext(api, api.trace.setSpan(served, span), meta);
  const sent = Object.keys(meta).length === before ? params : { ...params, _meta: meta };
  const onRequestId = options?.onRequestId;
  try {
    return await send(method, sent, {
      ...options,
      onRequestId: (id) => {
        if (span.isRecording()) span.setAttribute(SEMCONV.requestId, String(id));
        onRequestId?.(id);
      },
    });
  } catch (error) {
    if (span.isRecording()) {
      const errorType = errorTypeOf(error);
      span.setAttribute(SEMCONV.errorType, errorType);
      if (error instanceof McpError) span.setAttribute(SEMCONV.statusCode, errorType);
      span.setStatus({
        code: api.SpanStatusCode.ERROR,
        ...(error instanceof Error ? { message: error.message } : {}),
      });
    }
    throw error;
  } finally {
    span.end();
  }
}

function startAttributes(env: RequestEnvironment, method: string): Attributes {
  const attributes: Attributes = { [SEMCONV.methodName]: method, [TSMCP_ATTRIBUTES.era]: "handshake" };
  const session = env.session;
  const version = session?.handshake?.protocolVersion;
  if (version !== undefined) attributes[SEMCONV.protocolVersion] = version;
  if (session?.id !== undefined) attributes[SEMCONV.sessionId] = hashedSessionId(session, session.id);
  if (env.networkTransport !== undefined) attributes[SEMCONV.networkTransport] = env.networkTransport;
  return attributes;
}

function objectOr(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
