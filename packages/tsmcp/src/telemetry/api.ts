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
import { forgetHandover, handedOver, hasApiMembers } from "./handover.js";

/** The parts of `@opentelemetry/api` tsmcp uses (internal: never in a public signature). */
export type OtelApi = Pick<
  typeof otel,
  | "trace"
  | "context"
  | "propagation"
  | "metrics"
  | "SpanKind"
  | "SpanStatusCode"
  | "ROOT_CONTEXT"
  | "ProxyTracerProvider"
  | "createNoopMeter"
>;

/** `undefined`: not looked for yet; `null`: looked for and absent. */
let found: OtelApi | null | undefined;

interface NodeModuleLike {
  createRequire(from: string): (id: string) => unknown;
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
    return hasApiMembers(api) ? (api as OtelApi) : null;
  } catch {
    return null;
  }
}

/**
 * The OpenTelemetry API tsmcp records through, or `undefined` when there is none (not installed,
 * or not loadable synchronously on this runtime and not handed over). Looked for once.
 */
export function openTelemetry(): OtelApi | undefined {
  const given = handedOver();
  if (given !== undefined) return (given as OtelApi | null) ?? undefined;
  if (found === undefined) found = load();
  return found ?? undefined;
}

export { useOpenTelemetry } from "./handover.js";

/** Forgets what was found or handed over, so the next use looks again (internal: for tests). */
export function resetOpenTelemetry(): void {
  found = undefined;
  forgetHandover();
}
