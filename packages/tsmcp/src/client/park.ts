/**
 * Parking a multi-round-trip call: when nobody can answer a round's questions now, the call is
 * saved in a {@link PendingCallStore} under a ticket and resumed later, in any process, exactly
 * once. A callback says "not now" by throwing {@link InputUnavailableError}; with the `park` call
 * option the loop then saves the round and the call rejects with {@link CallParkedError}. Only a
 * 2026-07-28 call can be parked: a handshake-era question waits on a live session.
 * Spec: basic/patterns/mrtr (the client may persist `requestState` and retry later).
 */
import { ERROR_CODES, TsmcpError, type TsmcpErrorCode } from "../protocol/local-errors.js";
import type { InputRequiredMethod } from "../protocol/methods.js";
import type { InputRequiredResult } from "../protocol/schema/input.js";
import {
  DEFAULT_PARK_TTL_MS,
  isPendingCallStore,
  newTicket,
  type ParkedCall,
  type ParkedJson,
  type PendingCallStore,
} from "../state/pending-calls.js";

/** Where and how a call is parked (the `park` option of a call, or `client.park`). */
export interface ParkOptions {
  /** Where the parked call waits. */
  readonly store: PendingCallStore;
  /** How long it may wait, in milliseconds. Default {@link DEFAULT_PARK_TTL_MS} (24 hours). */
  readonly ttlMs?: number;
  /** Where to resume it (a URL, a command line), kept with it for the application. */
  readonly target?: string;
  /** The application's own data, kept with it in clear (never a secret). */
  readonly meta?: ParkedJson;
}

/**
 * Thrown by an input callback to say that nobody can answer this input request now (no one at the
 * terminal, the user is away). With the `park` option the call is parked instead of failing.
 */
export class InputUnavailableError extends TsmcpError {
  override readonly name: string = "InputUnavailableError";
  /** `"ERR_INPUT_UNAVAILABLE"`; subclasses (the `tsmcp` command's) may set their own. */
  override readonly code: string = ERROR_CODES.InputUnavailableError;
}

/** True for an {@link InputUnavailableError} (or a subclass), also from another copy of the package. */
export function isInputUnavailable(error: unknown): boolean {
  return (
    error instanceof InputUnavailableError ||
    (error instanceof Error && (error as { code?: unknown }).code === ERROR_CODES.InputUnavailableError)
  );
}

/** The call was parked (the `park` option): `ticket` resumes it with `client.resume`. */
export class CallParkedError extends TsmcpError {
  override readonly name = "CallParkedError";
  /** `"ERR_CALL_PARKED"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.CallParkedError;
  /** The parked call, as saved. */
  readonly call: ParkedCall;
  /** Its ticket. */
  readonly ticket: string;

  constructor(call: ParkedCall, cause: unknown) {
    const keys = Object.keys(call.inputRequests).join(", ");
    super(
      `The ${call.method} call was parked as ${call.ticket} until its questions (${keys}) can be answered`,
      {
        cause,
      },
    );
    this.call = call;
    this.ticket = call.ticket;
  }
}

/** Why a parked call cannot be resumed, or a call cannot be parked. */
export type ParkRefusal = "unknown" | "resumed" | "expired" | "legacy";

const REFUSALS: Readonly<Record<ParkRefusal, string>> = {
  unknown: "no parked call has this ticket (never parked, deleted, or forgotten after its deadline)",
  resumed: "it was already resumed; a parked call resumes once",
  expired: "its deadline passed",
  legacy:
    "the server speaks a handshake-era revision (2025-11-25 or older), whose questions wait on a live session; answer them now",
};

/** A parked call cannot be resumed (unknown ticket, resumed before, expired), or a call parked. */
export class ParkedCallRefusedError extends TsmcpError {
  override readonly name = "ParkedCallRefusedError";
  /** `"ERR_PARKED_CALL_REFUSED"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.ParkedCallRefusedError;
  /** Why. */
  readonly reason: ParkRefusal;
  /** The ticket, when one was given. */
  readonly ticket: string | undefined;

  constructor(reason: ParkRefusal, ticket?: string) {
    super(
      ticket === undefined
        ? `Cannot park this call: ${REFUSALS[reason]}`
        : `Cannot resume parked call ${ticket}: ${REFUSALS[reason]}`,
    );
    this.reason = reason;
    this.ticket = ticket;
  }
}

/**
 * Checks the `park` option.
 *
 * @throws TypeError for a missing store or a bad `target` / `meta`; RangeError for a `ttlMs` that is
 *   not a positive finite number.
 */
export function checkParkOptions(options: unknown, where: string): asserts options is ParkOptions {
  if (typeof options !== "object" || options === null)
    throw new TypeError(`${where}: park must be an object`);
  const park = options as Record<string, unknown>;
  if (!isPendingCallStore(park.store)) {
    throw new TypeError(`${where}: park.store must be a PendingCallStore (put, get, claim, list, delete)`);
  }
  if (
    park.ttlMs !== undefined &&
    !(typeof park.ttlMs === "number" && Number.isFinite(park.ttlMs) && park.ttlMs > 0)
  ) {
    throw new RangeError(`${where}: park.ttlMs must be a positive number of milliseconds`);
  }
  if (park.target !== undefined && typeof park.target !== "string") {
    throw new TypeError(`${where}: park.target must be a string`);
  }
  if (park.meta !== undefined && (typeof park.meta !== "object" || park.meta === null)) {
    throw new TypeError(`${where}: park.meta must be a JSON object`);
  }
}

/** What a parked call is made from. */
export interface ParkInput {
  readonly method: InputRequiredMethod;
  readonly params: ParkedJson;
  readonly result: InputRequiredResult;
  readonly round: number;
  readonly protocolVersion: string;
}

/** Saves the call of `input` in `options.store` at `nowMs`; resolves with what was saved. */
export async function parkCall(input: ParkInput, options: ParkOptions, nowMs: number): Promise<ParkedCall> {
  const {
    _meta: _dropped,
    inputResponses: _answers,
    requestState: _state,
    ...params
  } = input.params as Record<string, unknown>;
  const call: ParkedCall = {
    ticket: newTicket(),
    method: input.method,
    params: structuredClone(params),
    inputRequests: structuredClone(input.result.inputRequests ?? {}),
    ...(input.result.requestState === undefined ? {} : { requestState: input.result.requestState }),
    round: input.round,
    protocolVersion: input.protocolVersion,
    parkedAtMs: nowMs,
    deadlineMs: nowMs + (options.ttlMs ?? DEFAULT_PARK_TTL_MS),
    ...(options.target === undefined ? {} : { target: options.target }),
    ...(options.meta === undefined ? {} : { meta: structuredClone(options.meta) }),
  };
  await options.store.put(call);
  return call;
}

/** The result of a resumed call, by its method. */
export type ResumedCall<Tool, Prompt, Resource> =
  | { readonly method: "tools/call"; readonly result: Tool }
  | { readonly method: "prompts/get"; readonly result: Prompt }
  | { readonly method: "resources/read"; readonly result: Resource };
