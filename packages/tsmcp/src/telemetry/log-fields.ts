/**
 * Trace ids on log records: the ids of the span active where a log line is written, so a log
 * record and the trace it belongs to can be joined.
 */
import { openTelemetry } from "./api.js";

/** The fields tsmcp adds to a log record written while a span is active. */
export interface TraceLogFields {
  /** The active span's trace id (32 lowercase hex digits). */
  trace_id: string;
  /** The active span's id (16 lowercase hex digits). */
  span_id: string;
}

/**
 * The ids of the span active here, or `undefined` when there is no OpenTelemetry API, no active
 * span, or the active span's context is invalid (no provider registered).
 */
export function activeTraceFields(): TraceLogFields | undefined {
  const api = openTelemetry();
  if (api === undefined) return undefined;
  const span = api.trace.getActiveSpan();
  if (span === undefined) return undefined;
  const { traceId, spanId } = span.spanContext();
  if (!api.trace.isSpanContextValid(span.spanContext())) return undefined;
  return { trace_id: traceId, span_id: spanId };
}
