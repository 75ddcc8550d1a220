/**
 * The `telemetry` option servers and clients take. Kept apart from the recording code so that the
 * public types never require `@opentelemetry/api` (an optional peer dependency).
 * Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
 */

/** An OpenTelemetry `TracerProvider`, typed by the one method tsmcp calls on it. */
export interface TracerProviderLike {
  /** The tracer of the instrumentation scope `name` (tsmcp asks for "tsmcp") at `version`. */
  getTracer(name: string, version?: string): unknown;
}

/** An OpenTelemetry `MeterProvider`, typed by the one method tsmcp calls on it. */
export interface MeterProviderLike {
  /** The meter of the instrumentation scope `name` (tsmcp asks for "tsmcp") at `version`. */
  getMeter(name: string, version?: string): unknown;
}

/**
 * Where a server or a client records, beyond the global providers. Providers are typed loosely so
 * that this package's public types never require `@opentelemetry/api`: pass a `TracerProvider` and
 * a `MeterProvider` from it.
 */
export interface TelemetryOptions {
  /** The tracer provider to record spans with. Default: the global one (`trace.setGlobalTracerProvider`). */
  tracerProvider?: TracerProviderLike;
  /** The meter provider to record metrics with. Default: the global one (`metrics.setGlobalMeterProvider`). */
  meterProvider?: MeterProviderLike;
}

/**
 * The `telemetry` option of a server or a client: `false` records nothing; `true` (the default)
 * records through the global providers when `@opentelemetry/api` is present; an object names the
 * providers to record with.
 */
export type TelemetryOption = boolean | TelemetryOptions;

/**
 * Checks a `telemetry` option.
 *
 * @throws TypeError naming the owner when it is not a boolean or an object whose `tracerProvider`
 *   has `getTracer` and whose `meterProvider` has `getMeter`.
 */
export function checkTelemetryOption(owner: string, value: unknown): void {
  if (value === undefined || typeof value === "boolean") return;
  const options = value as Record<string, unknown> | null;
  const bad =
    typeof value !== "object" ||
    value === null ||
    (options?.tracerProvider !== undefined &&
      typeof (options.tracerProvider as { getTracer?: unknown } | null)?.getTracer !== "function") ||
    (options?.meterProvider !== undefined &&
      typeof (options.meterProvider as { getMeter?: unknown } | null)?.getMeter !== "function");
  if (bad) {
    throw new TypeError(
      `${owner} option "telemetry" must be a boolean or { tracerProvider?, meterProvider? } (an OpenTelemetry TracerProvider and MeterProvider)`,
    );
  }
}
