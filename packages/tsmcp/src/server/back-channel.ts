/**
 * Server -> client requests on a 2025-era session (`elicitation/create`, `sampling/createMessage`,
 * `roots/list`, `ping`): refused without a back-channel (the stateless 2026-07-28 wire), gated on
 * the capabilities the client declared at `initialize` before anything is sent, cancelled with the
 * request that made them, and answered only with a result the protocol schema accepts.
 * Spec (2025-11-25): client/elicitation, client/sampling, client/roots, basic/utilities/ping.
 */
import type * as z from "zod";
import { McpError } from "../protocol/errors.js";
import type { ClientCapabilities } from "../protocol/schema/base.js";
import type { RequestEnvironment } from "../transport/dispatcher.js";
import { describeIssue } from "./request-meta.js";
import { missingCapability, type RequiredCapability } from "./required-capability.js";
import { backChannelOf } from "./telemetry/back-channel-span.js";

/** One server -> client request to make. */
export interface BackChannelCall<Result> {
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
  /** What the client must have declared; undefined for `ping`. */
  readonly capability: RequiredCapability | undefined;
  /** The schema the client's result must satisfy. */
  readonly result: z.ZodType<Result>;
}

/**
 * The -32600 of a request made where there is no back-channel (the 2026-07-28 wire, stateless
 * legacy HTTP): the server cannot reach the client outside a response. The transport's own
 * refusal (`env.backChannelRefusal`) when it gives one.
 */
export function noBackChannel(method: string, env?: RequestEnvironment): McpError {
  return (
    env?.backChannelRefusal?.(method) ??
    McpError.of(
      "INVALID_REQUEST",
      `Cannot send '${method}': this transport context has no back-channel for server-initiated requests.`,
    )
  );
}

/**
 * Makes one server -> client request while serving a request: refuses without `env.request`
 * (-32600), refuses when the client did not declare `call.capability` (-32021 with
 * `data.requiredCapabilities`, nothing sent), cancels with `signal` (the serving request's) as
 * well as `options.signal`, and validates the client's result.
 *
 * @throws McpError -32600, -32021, the client's own error, -32001 on timeout (from the transport),
 *   -32603 "Client returned an invalid result for '<method>'" when the result does not validate;
 *   the abort reason when cancelled.
 */
export async function requestOverBackChannel<Result>(
  env: RequestEnvironment,
  capabilities: ClientCapabilities,
  call: BackChannelCall<Result>,
  options: { signal?: AbortSignal; timeoutMs?: number } | undefined,
): Promise<Result> {
  const send = backChannelOf(env);
  if (send === undefined) throw noBackChannel(call.method, env);
  const { capability } = call;
  if (capability !== undefined && !capability.isDeclared(capabilities)) {
    throw missingCapability(capability, `'${call.method}'`);
  }
  const signal = options?.signal === undefined ? env.signal : AbortSignal.any([env.signal, options.signal]);
  signal.throwIfAborted();
  const raw = await send(call.method, call.params, { signal, timeoutMs: options?.timeoutMs });
  const parsed = call.result.safeParse(raw);
  if (!parsed.success) {
    throw new McpError(-32603, `Client returned an invalid result for '${call.method}'`, undefined, {
      cause: new Error(describeIssue(parsed.error.issues)),
    });
  }
  return parsed.data;
}
