/**
 * Trace ids on log records: the ids of the span active where a log line is written, so a log
 * record and the trace it belongs to can be joined.
 */
import { LOG_LEVELS, type LogFields, type Logger, type LogLevel } from "../protocol/logger.js";
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

type LoggerMethod = (message: string, fields?: LogFields) => void;

/** The wrappers made so far, by the logger they wrap: one wrapper per logger. */
const wrappers = new WeakMap<object, object>();
/** Every wrapper, so that wrapping one again gives it back. */
const made = new WeakSet<object>();

/**
 * `logger` with the ids of the active span added to each line's fields (`trace_id`, `span_id`,
 * see {@link activeTraceFields}) when one is active; a line written with no active span reaches
 * `logger` unchanged (the same `fields` object, or none). Only the methods `logger` has are
 * wrapped, each called as a method of `logger`. Without the OpenTelemetry API this returns
 * `logger` itself, so logging costs nothing more. Wrapping the same logger twice gives the same
 * wrapper, and a wrapper wraps to itself. The caller's `fields` are never modified.
 */
export function withTraceFields<L extends Partial<Logger>>(logger: L): L {
  if (made.has(logger) || openTelemetry() === undefined) return logger;
  const known = wrappers.get(logger);
  if (known !== undefined) return known as L;
  const target = logger as Partial<Record<LogLevel, LoggerMethod>>;
  const wrapper: Partial<Record<LogLevel, LoggerMethod>> = {};
  for (const level of LOG_LEVELS) {
    if (typeof target[level] !== "function") continue;
    wrapper[level] = (message, fields) => {
      const trace = activeTraceFields();
      target[level]?.(message, trace === undefined ? fields : { ...fields, ...trace });
    };
  }
  Object.freeze(wrapper);
  wrappers.set(logger, wrapper);
  made.add(wrapper);
  return wrapper as L;
}
