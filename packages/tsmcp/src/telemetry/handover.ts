/**
 * Handing tsmcp the OpenTelemetry API where it cannot find `@opentelemetry/api` by itself. Kept
 * apart from `api.ts` so that the public entry's declarations name no type of the API: a project
 * without it installed still type-checks.
 */

/** The members of `@opentelemetry/api` tsmcp uses. */
const REQUIRED_MEMBERS = [
  "trace",
  "context",
  "propagation",
  "metrics",
  "SpanKind",
  "SpanStatusCode",
] as const;

/** `undefined`: nothing handed over; `null`: told to record nothing; else the API handed over. */
let handed: object | null | undefined;

/** Whether `value` has every member of the API tsmcp uses, each an object. */
export function hasApiMembers(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return REQUIRED_MEMBERS.every(
    (member) => typeof candidate[member] === "object" && candidate[member] !== null,
  );
}

/**
 * Hands tsmcp the OpenTelemetry API to record through, for runtimes where it cannot find
 * `@opentelemetry/api` by itself (browsers, Cloudflare Workers, Node before 20.16):
 *
 * ```ts
 * import * as otel from "@opentelemetry/api";
 * import { useOpenTelemetry } from "tsmcp/telemetry";
 * useOpenTelemetry(otel);
 * ```
 *
 * Servers and clients built afterwards record through it; pass `null` to stop recording in the
 * ones built afterwards. On Node 20.16+, Bun and Deno an installed `@opentelemetry/api` is found
 * without this call.
 *
 * @param api the module namespace of `@opentelemetry/api` (1.x), or `null`.
 * @throws TypeError when `api` lacks `trace`, `context`, `propagation`, `metrics`, `SpanKind` or
 *   `SpanStatusCode`.
 */
export function useOpenTelemetry(api: object | null): void {
  if (api !== null && !hasApiMembers(api)) {
    throw new TypeError(
      "useOpenTelemetry: api must be the @opentelemetry/api module (trace, context, propagation, metrics, SpanKind, SpanStatusCode)",
    );
  }
  handed = api;
}

/** What {@link useOpenTelemetry} was given last (internal): `undefined` when it was not called. */
export function handedOver(): object | null | undefined {
  return handed;
}

/** Forgets what was handed over (internal: for tests). */
export function forgetHandover(): void {
  handed = undefined;
}
