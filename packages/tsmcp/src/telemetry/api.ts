/**
 * Finding OpenTelemetry: tsmcp records spans and metrics through `@opentelemetry/api`, an optional
 * peer dependency. Where the runtime can load a package synchronously (Node 20.16+, Bun, Deno: they
 * have `process.getBuiltinModule`) the API is found on first use when it is installed; elsewhere
 * (browsers, Workers) hand it over with {@link useOpenTelemetry}. Without the API, or with no
 * provider registered in it, nothing is recorded. The API keeps its providers in one global
 * registry, so the copy found here and the one your application imports share them.
 * Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
 */
import type * as otel from "@opentelemetry/api";

/** The parts of `@opentelemetry/api` tsmcp uses (internal: never in a public signature). */
export type OtelApi = Pick<
  typeof otel,
  "trace" | "context" | "propagation" | "metrics" | "SpanKind" | "SpanStatusCode" | "ROOT_CONTEXT"
>;

const REQUIRED_MEMBERS = [
  "trace",
  "context",
  "propagation",
  "metrics",
  "SpanKind",
  "SpanStatusCode",
] as const;

/** `undefined`: not looked for yet; `null`: looked for and absent. */
let found: OtelApi | null | undefined;

interface NodeModuleLike {
  createRequire(from: string): (id: string) => unknown;
}

function isOtelApi(value: unknown): value is OtelApi {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return REQUIRED_MEMBERS.every(
    (member) => typeof candidate[member] === "object" && candidate[member] !== null,
  );
}

/** Loads `@opentelemetry/api` synchronously where the runtime can; `null` when it cannot or it is absent. */
function load(): OtelApi | null {
  const getBuiltinModule = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } })
    .process?.getBuiltinModule;
  if (typeof getBuiltinModule !== "function") return null;
  try {
    const nodeModule = getBuiltinModule("node:module") as NodeModuleLike | undefined;
    if (typeof nodeModule?.createRequire !== "function") return null;
    const api = nodeModule.createRequire(import.meta.url)("@opentelemetry/api");
    return isOtelApi(api) ? api : null;
  } catch {
    return null;
  }
}

/**
 * The OpenTelemetry API tsmcp records through, or `undefined` when there is none (not installed,
 * or not loadable synchronously on this runtime and not handed over). Looked for once.
 */
export function openTelemetry(): OtelApi | undefined {
  if (found === undefined) found = load();
  return found ?? undefined;
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
  if (api === null) {
    found = null;
    return;
  }
  if (!isOtelApi(api)) {
    throw new TypeError(
      "useOpenTelemetry: api must be the @opentelemetry/api module (trace, context, propagation, metrics, SpanKind, SpanStatusCode)",
    );
  }
  found = api;
}

/** Forgets what was found or handed over, so the next use looks again (internal: for tests). */
export function resetOpenTelemetry(): void {
  found = undefined;
}
