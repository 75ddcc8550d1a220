/**
 * `tsmcp/telemetry`: what you need to see inside tsmcp with OpenTelemetry. Servers and clients
 * record spans and metrics through `@opentelemetry/api` (an optional peer dependency) by
 * themselves; this entry names what they record and hands the API over where it cannot be found.
 * Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
 */
export {
  DURATION_BUCKETS_S,
  INSTRUMENTATION_SCOPE,
  METRICS,
  SEMCONV,
  TRACE_META_KEYS,
  TSMCP_ATTRIBUTES,
} from "./attributes.js";
export { useOpenTelemetry } from "./handover.js";
export { activeTraceFields, type TraceLogFields } from "./log-fields.js";
export type { MeterProviderLike, TelemetryOption, TelemetryOptions, TracerProviderLike } from "./options.js";
