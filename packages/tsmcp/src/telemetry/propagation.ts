/**
 * Trace context across the wire: the client injects `traceparent`, `tracestate` and `baggage` into
 * `params._meta` (SEP-414: unprefixed keys) through the configured OpenTelemetry propagators; the
 * server extracts them from `_meta`, or from the HTTP headers when `_meta` has none.
 * Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/ §Context propagation
 */
import type { Context, TextMapGetter, TextMapSetter } from "@opentelemetry/api";
import type { OtelApi } from "./api.js";

/** Reads header-like values: a `_meta` object or a `Headers`-style reader. */
export interface HeaderLike {
  get(name: string): string | null | undefined;
}

const META_GETTER: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === "string" ? value : undefined;
  },
};

const HEADER_GETTER: TextMapGetter<HeaderLike> = {
  keys: () => ["traceparent", "tracestate", "baggage"],
  get: (carrier, key) => carrier.get(key) ?? undefined,
};

const META_SETTER: TextMapSetter<Record<string, unknown>> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

/**
 * The remote parent a request carries: from `meta` when it has a string `traceparent`, else from
 * `headers` when they have one, else `undefined` (no remote parent).
 */
export function extractRemoteContext(
  api: OtelApi,
  meta: Record<string, unknown> | undefined,
  headers?: HeaderLike,
): Context | undefined {
  if (meta !== undefined && typeof meta.traceparent === "string") {
    return api.propagation.extract(api.ROOT_CONTEXT, meta, META_GETTER);
  }
  if (headers !== undefined && typeof headers.get("traceparent") === "string") {
    return api.propagation.extract(api.ROOT_CONTEXT, headers, HEADER_GETTER);
  }
  return undefined;
}

/**
 * Writes the trace context of `context` into `meta` (a copy the caller owns) through the
 * configured propagators: `traceparent`, `tracestate`, `baggage` as they apply.
 */
export function injectContext(api: OtelApi, context: Context, meta: Record<string, unknown>): void {
  api.propagation.inject(context, meta, META_SETTER);
}
