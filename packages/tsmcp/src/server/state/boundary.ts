/**
 * The requestState boundary: the middleware that opts a low-level `Server` into sealed state. On
 * `tools/call`, `prompts/get` and `resources/read` it verifies every inbound `requestState` before
 * params validation and hands the chain the plaintext, and seals the `requestState` of every
 * outbound `InputRequiredResult`.
 * Spec: basic/patterns/mrtr §Server Requirements (Basic Workflow), §Error Handling.
 */
import { internalError, invalidParams, type McpError } from "../../protocol/errors.js";
import type { Params } from "../../protocol/jsonrpc.js";
import { INPUT_REQUIRED_METHODS, isInputRequired } from "../../protocol/methods.js";
import { isReplayCache, type ReplayCache } from "../../state/replay-cache.js";
import type { RequestContext } from "../context.js";
import type { LogFields, Logger } from "../logger.js";
import {
  isThenable,
  type Middleware,
  type MiddlewareRequest,
  type Step,
  stepMiddleware,
  type WireResult,
} from "../middleware.js";
import { type Carried, requestTraceOf } from "../request-trace.js";
import { isCarriable } from "./carried-trace.js";
import { type OpenedClaims, type RequestBinding, requestBinding } from "./claims.js";
import { describeType } from "./describe-type.js";
import { InvalidRequestState, invalidRequestStateError } from "./errors.js";
import { RequestStateSecurity } from "./policy.js";
import { openRequestStateClaims, sealRequestState } from "./sealing.js";

/** Options of {@link requestStateBoundary}. */
export interface RequestStateBoundaryOptions {
  /**
   * The audience when the policy sets none: pass `server.name`, or `null` to mint audience-free
   * tokens deliberately (any server sharing the keys would then accept them). Required.
   */
  defaultAudience: string | null;
  /**
   * Which requests' states are single-use: for these, every sealed state carries a unique id, and an
   * inbound state is accepted only the first time (its id recorded in `replayCache` until the state
   * expires); a replay is refused like any other invalid state (log reason `replayed`). Default:
   * none. Requires `replayCache`.
   */
  singleUse?: (binding: RequestBinding) => boolean;
  /** Where single-use state ids are recorded. Required with `singleUse`. */
  replayCache?: ReplayCache;
}

/** What the boundary knows of one request on its way in and out. */
interface Leg {
  readonly method: string;
  readonly params: Params;
  readonly context: RequestContext;
  readonly logger: Logger;
  /** The request's principal, derived on first use. */
  readonly principal: () => string | undefined;
  /** The binding of the request, once computed. */
  binding: RequestBinding | undefined;
  /** What the inbound state carried, when it carried a trace. */
  carried: Carried | undefined;
}

type PrincipalOutcome = { principal: string | undefined } | { failure: InvalidRequestState };

/** The request's principal under the policy, derived at most once per request. */
function principalOnce(policy: RequestStateSecurity, ctx: RequestContext): () => string | undefined {
  let derived: PrincipalOutcome | undefined;
  return () => {
    derived ??= derivePrincipal(policy, ctx);
    const outcome = derived;
    if ("failure" in outcome) throw outcome.failure;
    return outcome.principal;
  };
}

/** The request's principal under the policy, or why it cannot be derived. */
function derivePrincipal(policy: RequestStateSecurity, ctx: RequestContext): PrincipalOutcome {
  const bind = policy.bindPrincipal;
  if (bind === null) return { principal: undefined };
  let principal: unknown;
  try {
    principal = bind(ctx);
  } catch (error) {
    return { failure: new InvalidRequestState("principal binding error", { cause: error }) };
  }
  if (principal !== undefined && typeof principal !== "string") {
    return {
      failure: new InvalidRequestState("principal binding error", {
        detail: `bindPrincipal returned ${describeType(principal)}, expected string or undefined`,
      }),
    };
  }
  return { principal };
}

function bindingOf(method: string, params: Params): RequestBinding {
  try {
    return requestBinding(method, params);
  } catch (error) {
    throw new InvalidRequestState("request binding", { cause: error });
  }
}

/** Log fields for a failure: the method, the reason and its detail, and the type (never the message) of a cause. */
function failureFields(method: string, error: unknown): LogFields & { reason: string; detail?: string } {
  if (error instanceof InvalidRequestState) {
    const fields: LogFields & { reason: string; detail?: string } = { method, reason: error.reason };
    if (error.detail !== undefined) fields.detail = error.detail;
    if (error.cause !== undefined) fields.cause = describeType(error.cause);
    return fields;
  }
  return { method, reason: "unexpected error", cause: describeType(error) };
}

/** The reason as a log line says it: the code, then the detail in parentheses. */
function said(fields: { reason: string; detail?: string }): string {
  return fields.detail === undefined ? fields.reason : `${fields.reason} (${fields.detail})`;
}

/** Records the first use of a single-use state. @throws InvalidRequestState when it is not the first. */
async function consume(
  cache: ReplayCache,
  opened: { readonly stateId: string | undefined; readonly expiresAtMs: number },
): Promise<void> {
  if (opened.stateId === undefined) {
    throw new InvalidRequestState("malformed", { detail: "a single-use state without a state id" });
  }
  let first: unknown;
  try {
    first = await cache.markUsed(opened.stateId, opened.expiresAtMs);
  } catch (error) {
    throw new InvalidRequestState("replay cache error", { cause: error });
  }
  if (first !== true) throw new InvalidRequestState("replayed");
}

function checkSingleUse(options: RequestStateBoundaryOptions): void {
  const { singleUse, replayCache } = options;
  if (singleUse !== undefined && typeof singleUse !== "function") {
    throw new TypeError("requestStateBoundary: options.singleUse must be a function");
  }
  if (replayCache !== undefined && !isReplayCache(replayCache)) {
    throw new TypeError("requestStateBoundary: options.replayCache must be a ReplayCache (with markUsed)");
  }
  if (singleUse !== undefined && replayCache === undefined) {
    throw new TypeError("requestStateBoundary: options.singleUse needs options.replayCache");
  }
}

/**
 * The middleware that seals `requestState`. One line opts a low-level server in:
 *
 * ```ts
 * server.use(requestStateBoundary(new RequestStateSecurity({ keys: [key] }), { defaultAudience: server.name }));
 * ```
 *
 * Only `tools/call`, `prompts/get` and `resources/read` are touched; everything else passes
 * through, both ways. Inbound, a `requestState` that is present and not `null` (an explicit `null`
 * counts as absent and is dropped) must be a string that opens under the policy's codec and whose
 * claims match this request (not expired, not minted more than 60 s ahead, same method, target and
 * arguments, same audience, same principal); the chain then sees the plaintext in its place.
 * Outbound, an `InputRequiredResult` with a string `requestState` is returned as a copy carrying a
 * freshly sealed token (new `iat`/`exp` every round).
 *
 * Every verification failure throws an `McpError` carrying `INVALID_REQUEST_STATE_ERROR` (the handler
 * does not run) and logs a warning `requestState rejected on <method>: <reason>` — never the
 * token, the plaintext or the principal. A failure while sealing logs an error
 * `refusing to seal requestState on <method>: <reason>` and throws -32603 "Internal error" —
 * except arguments that cannot be serialised into the binding (a client's, nested past the
 * stack): a warning, and -32602.
 *
 * With `options.singleUse`, the states of the requests it selects are single-use: each is sealed
 * with a unique id, and inbound, once every claim matched, the id is marked in
 * `options.replayCache` before the chain runs; a state already marked is refused (`replayed`), as is
 * one the cache cannot record (`replay cache error`, logged as an error: fail closed). So the round a
 * state carries runs at most once, even when the same retry arrives twice at once.
 *
 * When the request is recorded (a `RequestTrace` attached to its context, as the server does with
 * telemetry on), each sealed state also carries the span context of the call's first leg (any
 * valid one, sampled or not) and the round it was minted in, or the round alone when the first leg
 * had no valid span context (a server recording metrics only); once a state carrying one opened and
 * verified, the request's trace is told to continue from it before the chain runs. So the legs of
 * one call share one trace and count their rounds on whichever server sharing the keys they land.
 * A request nothing records carries on what its own state carried, one round on (so a server with
 * telemetry off in the middle of a fleet keeps the call's trace); with nothing carried in, nothing
 * is carried out: the tokens are as without telemetry. What is not valid is not carried.
 *
 * The effective audience is `policy.audience ?? options.defaultAudience`. Install it after auth
 * (so `ctx.auth` is set) and before middleware that should see plaintext.
 *
 * Spec: basic/patterns/mrtr §Server Requirements (Basic Workflow) (integrity-protect and verify
 * `requestState`; bind principal, expiry and the originating request), §Error Handling.
 *
 * @throws TypeError when `policy` is not a `RequestStateSecurity`, `options.defaultAudience` is
 *   missing or neither a string nor `null`, `options.singleUse` is not a function or comes without
 *   `options.replayCache`, or `options.replayCache` has no `markUsed`.
 */
export function requestStateBoundary(
  policy: RequestStateSecurity,
  options: RequestStateBoundaryOptions,
): Middleware {
  if (!(policy instanceof RequestStateSecurity)) {
    throw new TypeError("requestStateBoundary: policy must be a RequestStateSecurity");
  }
  const defaultAudience: unknown = (options as RequestStateBoundaryOptions | undefined)?.defaultAudience;
  if (defaultAudience === undefined) {
    throw new TypeError(
      "requestStateBoundary: options.defaultAudience is required; pass server.name, or null to mint audience-free tokens deliberately",
    );
  }
  if (defaultAudience !== null && typeof defaultAudience !== "string") {
    throw new TypeError("requestStateBoundary: options.defaultAudience must be a string or null");
  }
  checkSingleUse(options);
  const { singleUse, replayCache } = options;
  const audience = policy.audience ?? defaultAudience;
  // Requests whose state this boundary sealed with a trace: a 2025-era session fulfilling an
  // InputRequiredResult runs the same request again in-process, and that is one span, not a next leg.
  const carriedBySelf = new WeakSet<RequestContext>();
  const reject = (logger: Logger, method: string, error: unknown): McpError => {
    const fields = failureFields(method, error);
    const line = `requestState rejected on ${method}: ${said(fields)}`;
    if (fields.reason === "replay cache error") logger.error(line, fields);
    else logger.warn(line, fields);
    return invalidRequestStateError();
  };

  /** Seals the `requestState` of an outbound `InputRequiredResult` of `leg`; any other result passes. */
  const sealOutbound = (leg: Leg, result: WireResult): WireResult => {
    if (!isInputRequired(result) || typeof result.requestState !== "string") return result;
    const { method, params, context, logger, principal, carried } = leg;
    let binding = leg.binding;
    if (binding === undefined) {
      try {
        binding = bindingOf(method, params);
      } catch (error) {
        // The arguments came from the client (nested past the stack, say): its error, not ours.
        const fields = failureFields(method, error);
        logger.warn(`refusing to seal requestState on ${method}: ${said(fields)}`, fields);
        throw invalidParams(
          "Invalid params: the arguments cannot be serialised to bind requestState to them",
        );
      }
    }
    const trace = requestTraceOf(context);
    // A server recording nothing passes what it opened on, one round on: a fleet mixing servers
    // that record and servers that do not keeps one trace and counts every round.
    const toCarry =
      trace === undefined
        ? carried === undefined
          ? undefined
          : { ...carried, round: carried.round + 1 }
        : trace.toCarry();
    const carry = isCarriable(toCarry) ? toCarry : undefined;
    let sealed: string;
    try {
      sealed = sealRequestState(policy, result.requestState, {
        binding,
        audience,
        principal,
        singleUse: singleUse?.(binding) === true,
        trace: carry,
      });
    } catch (error) {
      const fields = failureFields(method, error);
      logger.error(`refusing to seal requestState on ${method}: ${said(fields)}`, fields);
      throw internalError();
    }
    if (carry !== undefined) carriedBySelf.add(context);
    return { ...result, requestState: sealed };
  };

  const sealLater = async (leg: Leg, pending: PromiseLike<WireResult>): Promise<WireResult> =>
    sealOutbound(leg, await pending);

  /** Runs the rest of the chain on `forwarded` and seals what it answers; waits only when it does. */
  const forward = (leg: Leg, forwarded: MiddlewareRequest, next: Step): WireResult | Promise<WireResult> => {
    if (leg.carried !== undefined && !carriedBySelf.has(leg.context)) {
      requestTraceOf(leg.context)?.continueFrom(leg.carried);
    }
    const result = next(forwarded);
    return isThenable(result) ? sealLater(leg, result) : sealOutbound(leg, result);
  };

  /** Marks a single-use state used, then goes on as {@link forward}. */
  const consumeThenForward = async (
    leg: Leg,
    opened: OpenedClaims,
    request: MiddlewareRequest,
    next: Step,
  ): Promise<WireResult> => {
    try {
      await consume(replayCache as ReplayCache, opened);
    } catch (error) {
      throw reject(leg.logger, leg.method, error);
    }
    const forwarded = { ...request, params: { ...leg.params, requestState: opened.state } };
    return forward(leg, forwarded, next);
  };

  return stepMiddleware(function requestStateBoundaryMiddleware(request, next) {
    const { method, params, context } = request;
    if (!INPUT_REQUIRED_METHODS.has(method)) return next(request);
    const leg: Leg = {
      method,
      params,
      context,
      logger: policy.logger ?? request.logger,
      principal: principalOnce(policy, context),
      binding: undefined,
      carried: undefined,
    };
    const inbound = params.requestState;
    if (inbound === null) {
      const { requestState: _absent, ...rest } = params;
      return forward(leg, { ...request, params: rest }, next);
    }
    if (inbound === undefined) return forward(leg, request, next);
    let opened: OpenedClaims;
    try {
      if (typeof inbound !== "string") {
        throw new InvalidRequestState("malformed", { detail: "non-string requestState" });
      }
      leg.binding = bindingOf(method, params);
      opened = openRequestStateClaims(policy, inbound, {
        binding: leg.binding,
        audience,
        principal: leg.principal,
      });
      leg.carried = opened.trace;
      if (singleUse?.(leg.binding) === true) {
        return consumeThenForward(leg, opened, request, next);
      }
    } catch (error) {
      throw reject(leg.logger, method, error);
    }
    return forward(leg, { ...request, params: { ...params, requestState: opened.state } }, next);
  });
}
