/**
 * The handler's stores and bus, guarded: any rejection (or throw) of theirs becomes a
 * {@link StateFailure}, so the legacy entry tells a failing engine (503 with `Retry-After`, the
 * cause logged) from a fault of its own (500). Spec (2025-11-25): basic/transports §Session
 * Management; RFC 9110 §15.6.4 (503) and §10.2.3 (`Retry-After`).
 */
import { McpError } from "../../../protocol/errors.js";
import { errorResponse, type RequestId } from "../../../protocol/jsonrpc.js";
import { isStateUnavailable } from "../../../state/errors.js";
import type { HttpServerAnswer } from "../exchange.js";
import type { SessionState } from "./state.js";

/** A store or the bus failed while serving; `cause` is what it rejected with. */
export class StateFailure extends Error {
  override readonly name = "StateFailure";

  constructor(cause: unknown) {
    super("The session state could not be reached", { cause });
  }
}

/** `target` with every method's failure turned into a {@link StateFailure}. */
function guard<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        try {
          const result: unknown = value.apply(object, args);
          return result instanceof Promise ? result.catch(fail) : result;
        } catch (error) {
          return Promise.reject(new StateFailure(error));
        }
      };
    },
  });
}

function fail(error: unknown): never {
  throw error instanceof StateFailure ? error : new StateFailure(error);
}

/** The state with its stores and bus guarded (see {@link StateFailure}). */
export function guardState(state: SessionState): SessionState {
  return {
    ...state,
    sessions: guard(state.sessions),
    events: guard(state.events),
    bus: state.bus === undefined ? undefined : guard(state.bus),
  };
}

/** Seconds a client is asked to wait after a state failure: the engine's hint, at least 1. */
export function retryAfterSeconds(failure: StateFailure): number {
  const cause = failure.cause;
  return isStateUnavailable(cause) ? Math.max(1, Math.ceil(cause.retryAfterMs / 1000)) : 1;
}

/**
 * The answer to a request the session state failed: 503 with `Retry-After` and the JSON-RPC
 * error -32603 "Service Unavailable: session state is unreachable; retry later".
 */
export function stateUnavailableAnswer(failure: StateFailure, id?: RequestId): HttpServerAnswer {
  const error = McpError.of(
    "INTERNAL_ERROR",
    "Service Unavailable: session state is unreachable; retry later",
  );
  return {
    kind: "json",
    status: 503,
    text: JSON.stringify(errorResponse(id, error)),
    headers: { "Retry-After": String(retryAfterSeconds(failure)) },
  };
}
