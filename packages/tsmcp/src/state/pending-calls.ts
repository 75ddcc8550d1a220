/**
 * The PendingCallStore seam (client side): parked multi-round-trip calls. A call whose questions
 * nobody can answer now (the user is away, the host is about to restart) is saved with everything
 * needed to go on — the target, the method and params, the questions, the `requestState` to echo —
 * under a ticket, and resumed later in any process, exactly once. Engine-neutral: an in-memory
 * default ({@link MemoryPendingCallStore}), one file per ticket on a disk (`FilePendingCallStore`
 * in `tsmcp/node`), Redis in `tsmcp-redis`. Spec: basic/patterns/mrtr (a client may persist
 * `requestState` and resume the call later).
 */
import type { InputRequests } from "../protocol/schema/input.js";

/** How long a parked call may wait for its answers by default: 24 hours, in milliseconds. */
export const DEFAULT_PARK_TTL_MS = 24 * 60 * 60 * 1000;

/** A JSON object (the params of a call, an application's own data). */
export type ParkedJson = { readonly [key: string]: unknown };

/** One parked call: what a later process needs to resume it. */
export interface ParkedCall {
  /** The ticket it is resumed with: random, URL-safe, 22 characters (128 bits). */
  readonly ticket: string;
  /** The carrier method. */
  readonly method: "tools/call" | "prompts/get" | "resources/read";
  /**
   * The call's params without `inputResponses`, `requestState` and `_meta`: `{ name, arguments }`
   * for a tool or prompt, `{ uri }` for a resource.
   */
  readonly params: ParkedJson;
  /** The questions still to answer, by input key (the server's `inputRequests`). */
  readonly inputRequests: InputRequests;
  /** The `requestState` to echo byte for byte when resuming, if the server sent one. */
  readonly requestState?: string;
  /** The `input_required` round it was parked at (1-based). */
  readonly round: number;
  /** The protocol revision the call was made at. */
  readonly protocolVersion: string;
  /** When it was parked, in milliseconds since the epoch. */
  readonly parkedAtMs: number;
  /** After this instant (milliseconds since the epoch) it can no longer be resumed. */
  readonly deadlineMs: number;
  /** Where to resume it (a URL, a command line): set by the application, unused by the SDK. */
  readonly target?: string;
  /** The application's own data (never a secret: stores keep it in clear). */
  readonly meta?: ParkedJson;
}

/** What claiming a ticket came to. */
export type ClaimResult =
  /** The ticket was pending and is now this caller's: the call may be resumed, once. */
  | { readonly status: "claimed"; readonly call: ParkedCall }
  /** No such ticket (never parked, deleted, or forgotten after its deadline). */
  | { readonly status: "unknown" }
  /** Claimed before, at `resumedAtMs` (milliseconds since the epoch). */
  | { readonly status: "resumed"; readonly resumedAtMs: number }
  /** Its deadline passed: it is removed, and cannot be resumed. */
  | { readonly status: "expired"; readonly call: ParkedCall };

/**
 * Where parked calls wait.
 *
 * Guarantees an implementation must give (the shared contract suite checks them):
 *
 * - **Exactly-once claim.** For one ticket, among every `claim` on every instance and process
 *   sharing the store, concurrent ones included, at most one resolves `claimed`; the others
 *   resolve `resumed` (while the tombstone lives) or `unknown`. Use one atomic operation (a file
 *   rename, a script in Redis), never a read then a delete.
 * - **Deadline.** A call past its `deadlineMs` is never `claimed`: `claim` resolves `expired` (and
 *   removes it), `list` leaves it out. Its tombstone lives until the deadline too, then the ticket
 *   is `unknown`.
 * - **Private.** What is stored is readable by this user only (files 0600 in a 0700 directory);
 *   the `requestState` is the server's sealed token, opaque here.
 * - **Fail closed.** Any failure rejects; nothing is claimed twice because a store was unreachable.
 */
export interface PendingCallStore {
  /** Saves a parked call under its ticket (replacing nothing: tickets are random). */
  put(call: ParkedCall): Promise<void>;
  /** The parked call under `ticket`, unclaimed, without claiming it (its deadline may be past). */
  get(ticket: string): Promise<ParkedCall | undefined>;
  /** Claims `ticket` at `nowMs` (milliseconds since the epoch), exactly once. */
  claim(ticket: string, nowMs: number): Promise<ClaimResult>;
  /** Every unclaimed call whose deadline is after `nowMs`, oldest first. */
  list(nowMs: number): Promise<ParkedCall[]>;
  /** Removes an unclaimed call; `true` when there was one. */
  delete(ticket: string): Promise<boolean>;
}

/** The form of a ticket: URL-safe base64, 16 to 64 characters (safe as a file name or a key). */
export const TICKET_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/** A new random ticket: 16 random bytes as URL-safe base64 (22 characters). */
export function newTicket(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/**
 * Checks a ticket before a store uses it as a name.
 *
 * @throws TypeError for anything but a string matching {@link TICKET_PATTERN}.
 */
export function checkTicket(ticket: unknown): asserts ticket is string {
  if (typeof ticket !== "string" || !TICKET_PATTERN.test(ticket)) {
    throw new TypeError(`not a parked-call ticket: ${JSON.stringify(String(ticket).slice(0, 80))}`);
  }
}

/** True when `value` has the shape of a {@link PendingCallStore}. */
export function isPendingCallStore(value: unknown): value is PendingCallStore {
  if (typeof value !== "object" || value === null) return false;
  const store = value as Record<string, unknown>;
  return ["put", "get", "claim", "list", "delete"].every((name) => typeof store[name] === "function");
}

/** True when `value` has the shape of a {@link ParkedCall} (as read back from a store). */
export function isParkedCall(value: unknown): value is ParkedCall {
  if (typeof value !== "object" || value === null) return false;
  const call = value as Record<string, unknown>;
  return (
    typeof call.ticket === "string" &&
    TICKET_PATTERN.test(call.ticket) &&
    (call.method === "tools/call" || call.method === "prompts/get" || call.method === "resources/read") &&
    typeof call.params === "object" &&
    call.params !== null &&
    typeof call.inputRequests === "object" &&
    call.inputRequests !== null &&
    (call.requestState === undefined || typeof call.requestState === "string") &&
    Number.isSafeInteger(call.round) &&
    typeof call.protocolVersion === "string" &&
    Number.isFinite(call.parkedAtMs) &&
    Number.isFinite(call.deadlineMs)
  );
}

/**
 * Parked calls in this process's memory: for tests and for a host that keeps running while the
 * user is away. Gone when the process ends; tombstones are dropped at their deadline.
 */
export class MemoryPendingCallStore implements PendingCallStore {
  readonly #calls = new Map<string, ParkedCall>();
  readonly #claimed = new Map<string, { readonly resumedAtMs: number; readonly deadlineMs: number }>();

  async put(call: ParkedCall): Promise<void> {
    checkTicket(call.ticket);
    this.#calls.set(call.ticket, structuredClone(call));
  }

  async get(ticket: string): Promise<ParkedCall | undefined> {
    const call = this.#calls.get(ticket);
    return call === undefined ? undefined : structuredClone(call);
  }

  async claim(ticket: string, nowMs: number): Promise<ClaimResult> {
    const call = this.#calls.get(ticket);
    if (call === undefined) {
      const tombstone = this.#claimed.get(ticket);
      if (tombstone === undefined || tombstone.deadlineMs <= nowMs) {
        this.#claimed.delete(ticket);
        return { status: "unknown" };
      }
      return { status: "resumed", resumedAtMs: tombstone.resumedAtMs };
    }
    this.#calls.delete(ticket);
    if (call.deadlineMs <= nowMs) return { status: "expired", call };
    this.#claimed.set(ticket, { resumedAtMs: nowMs, deadlineMs: call.deadlineMs });
    return { status: "claimed", call };
  }

  async list(nowMs: number): Promise<ParkedCall[]> {
    return [...this.#calls.values()]
      .filter((call) => call.deadlineMs > nowMs)
      .sort((a, b) => a.parkedAtMs - b.parkedAtMs)
      .map((call) => structuredClone(call));
  }

  async delete(ticket: string): Promise<boolean> {
    return this.#calls.delete(ticket);
  }
}
