/**
 * Assertions for the refusals a server must make, framework-neutral: each awaits a promise that
 * must reject, checks the error, and resolves with it; otherwise it throws
 * {@link HarnessAssertionError} (every test framework reports a thrown error as a failure).
 * And the tools to make those refusals happen: a tampered `requestState`, a clock that moves
 * only when told. Spec: basic/patterns/mrtr §Security (requestState), basic/index §Error Codes.
 */
import type { Clock } from "../protocol/clock.js";
import { McpError } from "../protocol/errors.js";

/** An expectation of the harness did not hold. */
export class HarnessAssertionError extends Error {
  override readonly name = "AssertionError";
}

/** The frozen message of a refused `requestState` (-32602), whatever the reason. */
export const INVALID_REQUEST_STATE_MESSAGE = "Invalid or expired requestState";

async function rejection(promise: Promise<unknown>, what: string): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new HarnessAssertionError(`expected ${what}, but the call succeeded`);
}

/**
 * Expects `promise` to reject with the frozen -32602 "Invalid or expired requestState" (tampered,
 * replayed, expired, or bound to another request, audience or principal); resolves with the error.
 *
 * @throws HarnessAssertionError when it resolves or rejects with anything else.
 */
export async function expectInvalidRequestState(promise: Promise<unknown>): Promise<McpError> {
  const error = await rejection(promise, `-32602 "${INVALID_REQUEST_STATE_MESSAGE}"`);
  if (
    !(error instanceof McpError) ||
    error.code !== -32602 ||
    error.message !== INVALID_REQUEST_STATE_MESSAGE
  ) {
    throw new HarnessAssertionError(
      `expected -32602 "${INVALID_REQUEST_STATE_MESSAGE}", got ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
    );
  }
  return error;
}

/**
 * Expects `promise` to reject with -32021 (a capability the client did not declare), naming
 * `capability` (`"elicitation"`, `"sampling"`, `"roots"`) in `data.requiredCapabilities` when given;
 * resolves with the error.
 *
 * @throws HarnessAssertionError otherwise.
 */
export async function expectCapabilityRequired(
  promise: Promise<unknown>,
  capability?: string,
): Promise<McpError> {
  const error = await rejection(promise, "-32021 (a missing client capability)");
  if (!(error instanceof McpError) || error.code !== -32021) {
    throw new HarnessAssertionError(
      `expected -32021, got ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
    );
  }
  const required = (error.data as { requiredCapabilities?: Record<string, unknown> } | undefined)
    ?.requiredCapabilities;
  if (capability !== undefined && required?.[capability] === undefined) {
    throw new HarnessAssertionError(
      `expected -32021 to require ${capability}, it requires ${JSON.stringify(required ?? {})}`,
    );
  }
  return error;
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * `state` with the character at `index` (default: the middle one) replaced by another of the
 * base64url alphabet: a token no server should accept.
 *
 * @throws TypeError for an empty state or an index outside it.
 */
export function tamperRequestState(state: string, index = Math.floor(state.length / 2)): string {
  if (typeof state !== "string" || state === "")
    throw new TypeError("tamperRequestState: state must be a non-empty string");
  if (!Number.isInteger(index) || index < 0 || index >= state.length) {
    throw new TypeError(`tamperRequestState: index must be within the state (0..${state.length - 1})`);
  }
  const at = ALPHABET.indexOf(state.charAt(index));
  const replacement = ALPHABET.charAt((at + 1) % ALPHABET.length);
  return state.slice(0, index) + replacement + state.slice(index + 1);
}

/** A clock that moves only when told to (pass it to `RequestStateSecurity` to expire states). */
export interface ManualClock extends Clock {
  /** Moves the clock `ms` milliseconds on. */
  advance(ms: number): void;
}

/**
 * A {@link ManualClock} at `startMs` (milliseconds since the epoch; default now):
 *
 * ```ts
 * const clock = manualClock();
 * const mcp = new MCPServer("x", { requestStateSecurity: new RequestStateSecurity({ keys: [key], clock }) });
 * // ... a first round, then:
 * clock.advance(DEFAULT_REQUEST_STATE_TTL_MS + 1);
 * await expectInvalidRequestState(t.retry(target, { inputResponses, requestState }));
 * ```
 */
export function manualClock(startMs: number = Date.now()): ManualClock {
  let now = startMs;
  return {
    now: () => now,
    sleep: async () => {},
    advance: (ms) => {
      if (!(Number.isFinite(ms) && ms >= 0))
        throw new RangeError("advance: ms must be a non-negative number");
      now += ms;
    },
  };
}
