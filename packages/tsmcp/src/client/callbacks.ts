/**
 * The client's answers to embedded input requests: one callback per kind (elicitation, sampling,
 * roots). Registering a callback declares the matching capability on every request; a request of a
 * kind or mode the client did not declare is refused locally, never answered.
 * Spec: client/elicitation, client/sampling, client/roots, basic/patterns/mrtr.
 */
import type { InputRequiredMethod } from "../protocol/methods.js";
import type { ClientCapabilities } from "../protocol/schema/base.js";
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  InputRequest,
  InputResponse,
  ListRootsResult,
} from "../protocol/schema/input.js";
import { UnsupportedInputRequestError } from "./errors.js";

/** What a callback knows about the input request it answers. */
export interface InputRequestContext {
  /**
   * The request's key in `inputRequests` (the answer goes back under it); on a 2025-era session,
   * the key a tsmcp server names in the request's `_meta["dev.tsmcp/input-key"]` (the key the same
   * question has at 2026-07-28: a resolver's name, a `ctx.ask` key), else the server's JSON-RPC id
   * of its `elicitation/create` (or other) request, as a string.
   */
  readonly key: string;
  /**
   * The call that asked: `tools/call`, `prompts/get` or `resources/read`. On a 2025-era session the
   * server's request names no call: it is the one carrier call in flight, undefined when there are
   * none or several.
   */
  readonly method: InputRequiredMethod | undefined;
  /** The tool or prompt name, or the resource URI, of that call (undefined when `method` is). */
  readonly target: string | undefined;
  /** The 1-based round of the call this request arrived in (1 on a 2025-era session). */
  readonly round: number;
  /** How the request arrived: embedded in an `InputRequiredResult` (`"modern"`) or sent by the server on a 2025-era session (`"legacy"`). */
  readonly era: "modern" | "legacy";
  /** Aborted when the call is abandoned (another callback failed, or the caller cancelled). */
  readonly signal: AbortSignal;
}

/** Answers an elicitation: show `params.message` and collect the form, or send the user to `params.url`. */
export type ElicitationCallback = (
  params: ElicitRequestParams,
  context: InputRequestContext,
) => ElicitResult | Promise<ElicitResult>;

/**
 * Answers a sampling request (deprecated feature) with the client's model.
 *
 * @deprecated Sampling is deprecated in MCP 2026-07-28; see docs/eras.md#deprecations.
 */
export type SamplingCallback = (
  params: CreateMessageRequestParams,
  context: InputRequestContext,
) => CreateMessageResult | Promise<CreateMessageResult>;

/**
 * Answers a roots request (deprecated feature).
 *
 * @deprecated Roots are deprecated in MCP 2026-07-28; see docs/eras.md#deprecations.
 */
export type ListRootsCallback = (context: InputRequestContext) => ListRootsResult | Promise<ListRootsResult>;

/** The callbacks a client answers input requests with. */
export interface InputCallbacks {
  /**
   * Answers `elicitation/create` (form and URL mode); registering it declares
   * `elicitation: { form: {}, url: {} }`. Spec: client/elicitation.
   */
  elicitationCallback?: ElicitationCallback;
  /**
   * Answers `sampling/createMessage`; registering it declares `sampling: {}`. Spec: client/sampling.
   *
   * @deprecated Sampling is deprecated in MCP 2026-07-28; see docs/eras.md#deprecations.
   */
  samplingCallback?: SamplingCallback;
  /**
   * Answers `roots/list`; registering it declares `roots: { listChanged: true }` (tell the server
   * with `Client.notifyRootsChanged`). Spec: client/roots.
   *
   * @deprecated Roots are deprecated in MCP 2026-07-28; see docs/eras.md#deprecations.
   */
  listRootsCallback?: ListRootsCallback;
}

/**
 * The capabilities the registered callbacks declare: elicitation (form and URL modes), sampling,
 * roots; `overrides` replace whole entries (e.g. `{ elicitation: { form: {} } }` for form only,
 * `{ sampling: { tools: {} } }` for sampling with tools).
 */
export function declaredCapabilities(
  callbacks: InputCallbacks,
  overrides: ClientCapabilities = {},
): ClientCapabilities {
  const capabilities: ClientCapabilities = {};
  if (callbacks.elicitationCallback) capabilities.elicitation = { form: {}, url: {} };
  if (callbacks.samplingCallback) capabilities.sampling = {};
  if (callbacks.listRootsCallback) capabilities.roots = { listChanged: true };
  return structuredClone({ ...capabilities, ...overrides });
}

function elicitationModes(capabilities: ClientCapabilities): { form: boolean; url: boolean } {
  const elicitation = capabilities.elicitation;
  if (elicitation === undefined) return { form: false, url: false };
  const form = elicitation.form !== undefined;
  const url = elicitation.url !== undefined;
  return !form && !url ? { form: true, url: false } : { form, url };
}

/**
 * Answers one embedded input request with the matching callback.
 *
 * @throws UnsupportedInputRequestError when no callback answers that kind, or the request uses an
 *   undeclared elicitation mode or sampling tools without `sampling.tools`; whatever the callback throws.
 */
export async function fulfilInputRequest(
  request: InputRequest,
  context: InputRequestContext,
  callbacks: InputCallbacks,
  capabilities: ClientCapabilities,
): Promise<InputResponse> {
  switch (request.method) {
    case "elicitation/create": {
      const callback = callbacks.elicitationCallback;
      if (callback === undefined)
        throw new UnsupportedInputRequestError(context.key, request.method, "no elicitationCallback");
      const mode = request.params.mode === "url" ? "url" : "form";
      if (!elicitationModes(capabilities)[mode]) {
        throw new UnsupportedInputRequestError(
          context.key,
          request.method,
          `elicitation mode "${mode}" was not declared`,
        );
      }
      return await callback(request.params, context);
    }
    case "sampling/createMessage": {
      const callback = callbacks.samplingCallback;
      if (callback === undefined)
        throw new UnsupportedInputRequestError(context.key, request.method, "no samplingCallback");
      const usesTools = request.params.tools !== undefined || request.params.toolChoice !== undefined;
      if (usesTools && capabilities.sampling?.tools === undefined) {
        throw new UnsupportedInputRequestError(
          context.key,
          request.method,
          "sampling with tools was not declared",
        );
      }
      return await callback(request.params, context);
    }
    case "roots/list": {
      const callback = callbacks.listRootsCallback;
      if (callback === undefined)
        throw new UnsupportedInputRequestError(context.key, request.method, "no listRootsCallback");
      return await callback(context);
    }
  }
}
