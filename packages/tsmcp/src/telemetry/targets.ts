/**
 * What a request's spans and metrics say about what it acts on, the same on both sides: the span
 * name (`tools/call provision`), the low-cardinality target attributes spans and metric points
 * share (method, tool or prompt name, `gen_ai.operation.name`), the resource URI (spans only: a
 * metric point never carries it, its values grow with the traffic), the multi round-trip methods,
 * the result type and the `error.type` of a failure.
 * Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
 */
import type { Attributes } from "@opentelemetry/api";
import { McpError } from "../protocol/errors.js";
import {
  HANDSHAKE_ERA_REQUEST_METHODS,
  INPUT_REQUIRED_METHODS,
  isKnownMethod,
  NOTIFICATION_METHODS,
} from "../protocol/methods.js";
import { SEMCONV } from "./attributes.js";

/** The methods a multi round-trip call runs through: their spans carry `tsmcp.mrtr.round`. */
export const MRTR_METHODS: ReadonlySet<string> = INPUT_REQUIRED_METHODS;

/** The methods whose spans carry `mcp.resource.uri`. */
export const URI_METHODS: ReadonlySet<string> = new Set([
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
]);

/** What `mcp.method.name` and span names say for a method nobody defines: the conventions' fallback. */
export const OTHER_METHOD = "_OTHER";

/**
 * The method as spans and metric points record it: a method MCP defines as itself, any other as
 * {@link OTHER_METHOD}, so a peer making up method names makes no new span names or metric series.
 */
export function methodNameOf(method: string): string {
  return isKnownMethod(method) ||
    HANDSHAKE_ERA_REQUEST_METHODS.has(method) ||
    NOTIFICATION_METHODS.has(method)
    ? method
    : OTHER_METHOD;
}

/** What a request's result says, for `tsmcp.result_type`. */
export type ResultType = "complete" | "input_required" | "task";

/** The tool of a `tools/call` or the prompt of a `prompts/get` (`params.name`), else undefined. */
export function targetOf(method: string, params: Record<string, unknown> | undefined): string | undefined {
  if (method !== "tools/call" && method !== "prompts/get") return undefined;
  const name = params?.name;
  return typeof name === "string" ? name : undefined;
}

/** The span name: `{method} {target}` when the request names a tool or prompt, else the method. */
export function spanNameOf(method: string, target: string | undefined): string {
  return target === undefined ? method : `${method} ${target}`;
}

/**
 * Writes `mcp.method.name` and, for a `target` (see {@link targetOf}), `gen_ai.tool.name` with
 * `gen_ai.operation.name: execute_tool` or `gen_ai.prompt.name` into `attributes`, and returns it.
 * Low cardinality: fit for metric points as well as spans.
 */
export function targetAttributes(
  method: string,
  target: string | undefined,
  attributes: Attributes = {},
): Attributes {
  attributes[SEMCONV.methodName] = method;
  if (target === undefined) return attributes;
  if (method === "tools/call") {
    attributes[SEMCONV.toolName] = target;
    attributes[SEMCONV.operationName] = "execute_tool";
  } else {
    attributes[SEMCONV.promptName] = target;
  }
  return attributes;
}

/** The `mcp.resource.uri` of a request of {@link URI_METHODS} (`params.uri`), else undefined. Spans only. */
export function resourceUriOf(
  method: string,
  params: Record<string, unknown> | undefined,
): string | undefined {
  if (!URI_METHODS.has(method)) return undefined;
  const uri = params?.uri;
  return typeof uri === "string" ? uri : undefined;
}

/** What a result says about itself: `input_required`, `task` or (anything else) `complete`. */
export function resultTypeOf(result: Record<string, unknown>): ResultType {
  const type = result.resultType;
  return type === "input_required" || type === "task" ? type : "complete";
}

/** The `error.type` of a failure: the JSON-RPC code for an `McpError`, else the error's name. */
export function errorTypeOf(error: unknown): string {
  if (error instanceof McpError) return String(error.code);
  if (error instanceof Error) return error.name;
  return "unknown";
}
