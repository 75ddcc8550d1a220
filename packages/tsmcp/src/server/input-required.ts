/**
 * Building `InputRequiredResult`s and the input requests they embed, for handlers that drive the
 * multi-round-trip flow by hand. Spec: basic/patterns/mrtr.
 */
import type {
  CreateMessageRequest,
  CreateMessageRequestParams,
  ElicitRequest,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  InputRequests,
  InputRequiredResult,
  ListRootsRequest,
} from "../protocol/schema/input.js";

/** The fields of an `InputRequiredResult`: at least one must be given. */
export interface InputRequiredFields {
  /** Requests the client must fulfil before retrying, keyed by names the server picks. */
  inputRequests?: InputRequests;
  /** Opaque state the client echoes on the retry, byte for byte. */
  requestState?: string;
}

/**
 * An `InputRequiredResult` (`resultType: "input_required"`) for `tools/call`, `prompts/get` or
 * `resources/read`. The result holds its own `inputRequests` map; the embedded requests are shared,
 * not copied (nothing downstream mutates them, so a module-level question can be reused).
 *
 * @throws TypeError when neither a non-empty `inputRequests` nor a `requestState` is given,
 *   `requestState` is not a string, or `inputRequests` has a `__proto__` key.
 */
export function inputRequired(fields: InputRequiredFields): InputRequiredResult {
  const hasRequests = fields.inputRequests !== undefined && Object.keys(fields.inputRequests).length > 0;
  if (fields.requestState !== undefined && typeof fields.requestState !== "string") {
    throw new TypeError("inputRequired: requestState must be a string");
  }
  if (hasRequests && Object.hasOwn(fields.inputRequests as object, "__proto__")) {
    throw new TypeError(
      'inputRequired: "__proto__" cannot be an inputRequests key: JSON maps drop it, so the client would never see that request',
    );
  }
  if (!hasRequests && fields.requestState === undefined) {
    throw new TypeError("inputRequired: an InputRequiredResult needs inputRequests, requestState, or both");
  }
  const result: InputRequiredResult = { resultType: "input_required" };
  if (hasRequests) result.inputRequests = { ...fields.inputRequests };
  if (fields.requestState !== undefined) result.requestState = fields.requestState;
  return result;
}

/**
 * An elicitation request: form mode (`message` + flat `requestedSchema`; `mode` defaults to
 * "form") or URL mode (`mode: "url"`, `message`, `url`; the client must declare `elicitation.url`).
 */
export function elicitationRequest(params: ElicitRequestFormParams | ElicitRequestURLParams): ElicitRequest {
  const copy = structuredClone(params);
  if (copy.mode !== "url") copy.mode = "form";
  return { method: "elicitation/create", params: copy as ElicitRequest["params"] };
}

/**
 * A sampling request (deprecated feature): ask the client's model to complete `messages`.
 *
 * @deprecated Sampling is deprecated in MCP 2026-07-28; see docs/eras.md#deprecations.
 */
export function samplingRequest(params: CreateMessageRequestParams): CreateMessageRequest {
  return { method: "sampling/createMessage", params: { ...params } };
}

/**
 * A roots request (deprecated feature): ask which filesystem roots the client exposes.
 *
 * @deprecated Roots are deprecated in MCP 2026-07-28; see docs/eras.md#deprecations.
 */
export function rootsRequest(): ListRootsRequest {
  return { method: "roots/list" };
}
