/**
 * The client's span for a request the server sends it on a 2025-era session (`elicitation/create`,
 * `sampling/createMessage`, `roots/list`, `ping`): a SERVER span, the child of the trace context
 * the request carries in its `_meta` when it has one, else of the active context; the callback
 * answering it runs inside it. (Its duration is the server's operation, measured there.) Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
 */
import type { JSONRPCRequest } from "../protocol/jsonrpc.js";
import { SEMCONV, TSMCP_ATTRIBUTES } from "../telemetry/attributes.js";
import { extractRemoteContext } from "../telemetry/propagation.js";
import type { Telemetry } from "../telemetry/telemetry.js";
import type { Transport } from "../transport/transport.js";
import { failSpan } from "./request-span.js";

/** What answers the server's requests on a transport. */
type Answer = NonNullable<Transport["onRequest"]>;

/**
 * `answer`, each request it answers inside a SERVER span (see {@link answerTraced}) that names
 * `session`'s protocol version; `answer` itself when `telemetry` is undefined.
 */
export function tracedAnswers(
  telemetry: Telemetry | undefined,
  session: { readonly protocolVersion: string },
  answer: Answer,
): Answer {
  if (telemetry === undefined) return answer;
  return (request, incoming) =>
    answerTraced(telemetry, session.protocolVersion, request, () => answer(request, incoming));
}

/** Answers `request` with `answer`, inside a SERVER span that ends with the answer. */
export async function answerTraced(
  telemetry: Telemetry,
  protocolVersion: string,
  request: JSONRPCRequest,
  answer: () => Promise<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  if (!telemetry.recording()) return answer();
  const { api } = telemetry;
  const meta = (request.params as { _meta?: unknown } | undefined)?._meta;
  const parent =
    (typeof meta === "object" && meta !== null
      ? extractRemoteContext(api, meta as Record<string, unknown>)
      : undefined) ?? api.context.active();
  const span = telemetry.tracer.startSpan(
    request.method,
    {
      kind: api.SpanKind.SERVER,
      attributes: {
        [SEMCONV.methodName]: request.method,
        [SEMCONV.requestId]: String(request.id),
        [SEMCONV.protocolVersion]: protocolVersion,
        [TSMCP_ATTRIBUTES.era]: "handshake",
      },
    },
    parent,
  );
  try {
    return await api.context.with(api.trace.setSpan(parent, span), answer);
  } catch (error) {
    failSpan(telemetry, span, {}, error);
    throw error;
  } finally {
    span.end();
  }
}
