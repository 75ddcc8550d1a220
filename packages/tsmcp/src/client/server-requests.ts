/**
 * The one routing function from the server's requests to the client's callbacks on a 2025-era
 * session: `elicitation/create`, `sampling/createMessage` and `roots/list` go to the same
 * `elicitationCallback`, `samplingCallback` and `listRootsCallback` that answer the multi-round-trip
 * loop's `inputRequests` (through {@link fulfilInputRequest}); `ping` is answered `{}`.
 *
 * A request no callback answers gets -32601 "Method not found" naming the missing callback: for
 * the client it is a method it does not serve (JSON-RPC requires an answer, so it never hangs). A
 * request in a mode or with a feature the client did not declare gets -32602. A callback that
 * throws an `McpError` answers with it; any other failure answers -32603.
 * Spec (2025-11-25): client/elicitation, client/sampling, client/roots §Error Handling (a client
 * without roots answers -32601), basic/utilities/ping.
 */

import { ERRORS, invalidParams, McpError, methodNotFound } from "../protocol/errors.js";
import { INPUT_KEY_META, INPUT_KEY_META_MAX_LENGTH } from "../protocol/input-key.js";
import type { JSONRPCRequest } from "../protocol/jsonrpc.js";
import type { InputRequiredMethod } from "../protocol/methods.js";
import type { ClientCapabilities } from "../protocol/schema/base.js";
import { InputRequestSchema } from "../protocol/schema/input.js";
import type { IncomingRequestOptions } from "../transport/transport.js";
import { fulfilInputRequest, type InputCallbacks } from "./callbacks.js";
import { UnsupportedInputRequestError } from "./errors.js";

/** The callback each server -> client method needs. */
const CALLBACK_FOR: Readonly<Record<string, keyof InputCallbacks>> = {
  "elicitation/create": "elicitationCallback",
  "sampling/createMessage": "samplingCallback",
  "roots/list": "listRootsCallback",
};

/** The carrier call a server request is attributed to, when exactly one is in flight. */
export interface CallInFlight {
  readonly method: InputRequiredMethod;
  readonly target: string;
}

/**
 * Answers one server -> client request with the registered callbacks.
 *
 * @returns the result object to send back.
 * @throws McpError whose code, message and data become the JSON-RPC error sent back.
 */
export async function answerServerRequest(
  request: JSONRPCRequest,
  options: IncomingRequestOptions,
  callbacks: InputCallbacks,
  capabilities: ClientCapabilities,
  call: CallInFlight | undefined,
): Promise<Record<string, unknown>> {
  if (request.method === "ping") return {};
  const callback = CALLBACK_FOR[request.method];
  if (callback === undefined) throw methodNotFound(request.method);
  if (callbacks[callback] === undefined) {
    throw new McpError(
      methodNotFound(request.method).code,
      `Method not found: ${request.method} (this client registered no ${callback})`,
    );
  }
  const { _meta: meta, ...params } = (request.params ?? {}) as Record<string, unknown>;
  const parsed = InputRequestSchema.safeParse({ method: request.method, params });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidParams(
      `${request.method}: invalid params (${issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid"})`,
    );
  }
  const context = {
    key: inputKeyOf(meta) ?? String(request.id),
    method: call?.method,
    target: call?.target,
    round: 1,
    era: "legacy" as const,
    signal: options.signal,
  };
  try {
    return (await fulfilInputRequest(parsed.data, context, callbacks, capabilities)) as Record<
      string,
      unknown
    >;
  } catch (error) {
    if (error instanceof McpError) throw error;
    if (error instanceof UnsupportedInputRequestError) throw invalidParams(error.message);
    throw new McpError(
      ERRORS.INTERNAL_ERROR.code,
      `The client's ${callback} failed while answering ${request.method}`,
      undefined,
      { cause: error },
    );
  }
}

/**
 * The input key a tsmcp server names in a handshake-era request's `_meta[INPUT_KEY_META]` (the key
 * the same question has at 2026-07-28), when it is a non-empty string of at most
 * {@link INPUT_KEY_META_MAX_LENGTH} characters.
 */
function inputKeyOf(meta: unknown): string | undefined {
  if (typeof meta !== "object" || meta === null) return undefined;
  const key = (meta as Record<string, unknown>)[INPUT_KEY_META];
  return typeof key === "string" && key !== "" && key.length <= INPUT_KEY_META_MAX_LENGTH ? key : undefined;
}
