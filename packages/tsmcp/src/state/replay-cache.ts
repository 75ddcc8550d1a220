/**
 * The ReplayCache seam: remembers which single-use `requestState` tokens were already used, so that
 * the round a token carries runs at most once. Engine-neutral: an in-memory default for one process
 * ({@link MemoryReplayCache}), a shared store (Redis, say) for a fleet. Spec:
 * https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr (Server
 * Requirements: the server decides how long, and how often, a `requestState` is valid).
 */

/**
 * Where single-use state ids are remembered until they expire.
 *
 * Guarantees an implementation must give (the shared contract suite checks them):
 *
 * - **Atomic first use.** For one `id`, among every call of `markUsed` on every instance sharing
 *   the store, exactly one resolves `true` while the entry lives; concurrent calls included. A
 *   check-then-set in two steps does not qualify (use one atomic operation, e.g. `SET NX PXAT`).
 * - **Expiry.** An entry lives until `expiresAtMs` (epoch milliseconds, the state's own expiry) and
 *   is forgotten from that instant on; by then the state it stands for is refused as expired
 *   anyway, so forgetting it never lets a replay through. An `expiresAtMs` already past is not
 *   stored (the call resolves `true`).
 * - **Bounded.** Storage is bounded: expired entries are dropped, and a store that cannot take a
 *   new entry rejects (the state is then refused) rather than forgetting a live one, which would
 *   let that state run again.
 * - **Fail closed.** Any failure rejects the promise; the caller refuses the state (the
 *   requestState boundary answers -32602 and logs `replay cache error`).
 */
export interface ReplayCache {
  /**
   * Marks `id` as used until `expiresAtMs` (epoch milliseconds).
   *
   * @param id the state's unique id (opaque, at most a few dozen URL-safe characters).
   * @param expiresAtMs when the entry may be forgotten: the state's expiry, epoch milliseconds.
   * @returns `true` the first time `id` is marked (while its entry lives), `false` after.
   * @throws (rejects) when the mark cannot be recorded (a full store, an unreachable engine).
   */
  markUsed(id: string, expiresAtMs: number): Promise<boolean>;
}

/** True when `value` has the shape of a {@link ReplayCache} (a `markUsed` function). */
export function isReplayCache(value: unknown): value is ReplayCache {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { markUsed?: unknown }).markUsed === "function"
  );
}
