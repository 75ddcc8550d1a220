/**
 * The client's multi-round-trip loop: while the server answers `input_required`, fulfil the
 * embedded requests of the round (at most a few at a time) and retry the same call with the answers
 * under the same keys and the `requestState` echoed byte for byte; back off on rounds that carry
 * only state; stop past a round cap, and refuse a round that asks for more than the per-round cap
 * or carries a `requestState` larger than the state cap. Spec: basic/patterns/mrtr §Client Requirements (Basic Workflow).
 */
import { onAbort } from "../protocol/async.js";
import type { Clock } from "../protocol/clock.js";
import { isInputRequired } from "../protocol/methods.js";
import type {
  InputRequest,
  InputRequiredResult,
  InputResponse,
  InputResponses,
} from "../protocol/schema/input.js";
import { exceedsBytes } from "../protocol/text.js";
import { LazyAbortController } from "../transport/abort-source.js";
import {
  InputRequestsPerRoundExceededError,
  InputRequiredRoundsExceededError,
  RequestStateTooLargeError,
} from "./errors.js";

/** Retries a call allows by default before giving up: 10. */
export const DEFAULT_INPUT_REQUIRED_MAX_ROUNDS = 10;
/**
 * Embedded requests one `input_required` round may carry by default: 64. A round with more fails
 * with `InputRequestsPerRoundExceededError` before any callback runs.
 */
export const DEFAULT_INPUT_REQUESTS_MAX_PER_ROUND = 64;
/**
 * The largest `requestState` the client echoes by default, in UTF-8 bytes: 1 MiB (1 048 576). A
 * round with a larger one fails with `RequestStateTooLargeError` before any callback runs.
 */
export const DEFAULT_REQUEST_STATE_MAX_BYTES = 1024 * 1024;
/** Callbacks of one round that run at the same time by default: 8. */
export const DEFAULT_INPUT_REQUEST_CONCURRENCY = 8;
/** The first wait before retrying a round that carried only `requestState`: 50 ms. */
export const STATE_ONLY_BACKOFF_INITIAL_MS = 50;
/** The longest wait between state-only rounds: 250 ms. */
export const STATE_ONLY_BACKOFF_MAX_MS = 250;

/** One leg of the call: send it with these answers and state, get its result. */
export type SendLeg<R> = (
  inputResponses: InputResponses | undefined,
  requestState: string | undefined,
) => Promise<R | InputRequiredResult>;

/**
 * Answers one embedded request. `abort.signal` aborts when the call is abandoned; it is made when
 * first read, so read it only where it is used.
 */
export type Fulfil = (
  request: InputRequest,
  key: string,
  round: number,
  abort: { readonly signal: AbortSignal },
) => Promise<InputResponse>;

/** Options of {@link driveInputRequired}. */
export interface DriveOptions {
  /** The call's method, for messages. */
  method: string;
  /** Retries allowed; the first `input_required` answer is round 1. */
  maxRounds: number;
  /** Embedded requests one round may carry; more fails the call. */
  maxRequestsPerRound: number;
  /** The largest `requestState` echoed, in UTF-8 bytes; a larger one fails the call. */
  maxRequestStateBytes: number;
  /** Callbacks of one round that run at the same time (at least 1). */
  concurrency: number;
  /** Where back-off waits come from. */
  clock: Clock;
  /** Cancels the whole call. */
  signal?: AbortSignal;
  /** Answers to seed the first leg with (resuming a persisted loop). */
  inputResponses?: InputResponses;
  /** State to seed the first leg with (resuming a persisted loop). */
  requestState?: string;
  /**
   * Called when a callback of round `round` throws a failure this hook takes (an
   * `InputUnavailableError` when the call may be parked): it saves the round and throws what the
   * call rejects with. When it returns, the callback's failure is thrown as it is.
   */
  onUnanswered?: (failure: unknown, required: InputRequiredResult, round: number) => Promise<void>;
}

/**
 * Runs the loop to the final result.
 *
 * @throws InputRequiredRoundsExceededError past `maxRounds`; InputRequestsPerRoundExceededError
 *   for a round with more than `maxRequestsPerRound` requests (no callback runs, no retry is
 *   sent); RequestStateTooLargeError for a round whose `requestState` exceeds
 *   `maxRequestStateBytes` (likewise); the first callback failure (its siblings are aborted, the rest never start, and no
 *   retry is sent); whatever a leg throws.
 */
export async function driveInputRequired<R>(
  send: SendLeg<R>,
  fulfil: Fulfil,
  options: DriveOptions,
): Promise<R> {
  let result = await send(options.inputResponses, options.requestState);
  let rounds = 0;
  let delayMs = STATE_ONLY_BACKOFF_INITIAL_MS;
  while (isInputRequired(result)) {
    const required = result as InputRequiredResult;
    rounds += 1;
    if (rounds > options.maxRounds)
      throw new InputRequiredRoundsExceededError(options.maxRounds, options.method);
    const requests = Object.entries(required.inputRequests ?? {});
    let responses: InputResponses | undefined;
    if (requests.length > options.maxRequestsPerRound) {
      throw new InputRequestsPerRoundExceededError(
        options.maxRequestsPerRound,
        requests.length,
        options.method,
      );
    }
    if (
      required.requestState !== undefined &&
      exceedsBytes(required.requestState, options.maxRequestStateBytes)
    ) {
      throw new RequestStateTooLargeError(options.maxRequestStateBytes, options.method);
    }
    if (requests.length > 0) {
      delayMs = STATE_ONLY_BACKOFF_INITIAL_MS;
      try {
        responses = await fulfilAll(requests, fulfil, rounds, options.concurrency, options.signal);
      } catch (failure) {
        await options.onUnanswered?.(failure, required, rounds);
        throw failure;
      }
    } else {
      await options.clock.sleep(delayMs, options.signal);
      delayMs = Math.min(delayMs * 2, STATE_ONLY_BACKOFF_MAX_MS);
    }
    result = await send(responses, required.requestState);
  }
  return result as R;
}

/**
 * Fulfils `requests` with at most `concurrency` callbacks running; the first failure aborts the rest
 * (and is thrown). Also answers the `inputRequests` of a task (`tool-task.ts`).
 */
export async function fulfilAll(
  requests: [string, InputRequest][],
  fulfil: Fulfil,
  round: number,
  concurrency: number,
  outer: AbortSignal | undefined,
): Promise<InputResponses> {
  const controller = new LazyAbortController();
  if (outer?.aborted) throw outer.reason;
  const unlink = onAbort(outer, (reason) => controller.abort(reason));
  const answers: [string, InputResponse][] = new Array(requests.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < requests.length && !controller.aborted) {
      const index = next++;
      const [key, request] = requests[index] as [string, InputRequest];
      try {
        answers[index] = [key, await fulfil(request, key, round, controller)];
      } catch (error) {
        controller.abort(error);
        throw error;
      }
    }
  };
  try {
    const workers = Math.max(1, Math.min(concurrency, requests.length));
    if (workers === 1) await worker();
    else await Promise.all(Array.from({ length: workers }, worker));
    if (controller.aborted) throw controller.reason;
    return Object.fromEntries(answers);
  } finally {
    unlink();
  }
}
