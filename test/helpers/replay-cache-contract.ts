/**
 * The contract every `ReplayCache` keeps, as one suite to run against each implementation: the
 * in-memory default here, a shared engine (Redis) in its own package. Call it inside a test file:
 *
 * ```ts
 * replayCacheContract("MemoryReplayCache", (clock) => ({ cache: new MemoryReplayCache({ clock }) }));
 * ```
 *
 * `make` receives a {@link ManualClock} starting at {@link CONTRACT_START_MS}; an implementation
 * whose expiry follows that clock returns `advance` (move it on), one whose engine keeps its own time
 * omits it and the expiry cases are skipped (it must then cover expiry in its own tests).
 */
import { describe, expect, it } from "vitest";
import type { Clock } from "../../packages/tsmcp/src/protocol/clock.js";
import type { ReplayCache } from "../../packages/tsmcp/src/state/replay-cache.js";

/** Where the contract's clock starts, epoch milliseconds. */
export const CONTRACT_START_MS = Date.UTC(2026, 6, 28);

/** A clock that moves only when told to. */
export interface ManualClock extends Clock {
  /** Moves the clock `ms` milliseconds on. */
  advance(ms: number): void;
}

/** A {@link ManualClock} at `startMs`. */
export function manualClock(startMs = CONTRACT_START_MS): ManualClock {
  let now = startMs;
  return {
    now: () => now,
    sleep: async () => {},
    advance: (ms) => {
      now += ms;
    },
  };
}

/** What `make` builds: the cache, and how to move its time on (when it follows the given clock). */
export interface ContractSubject {
  readonly cache: ReplayCache;
  readonly advance?: (ms: number) => void | Promise<void>;
}

let sequence = 0;
/** An id no other case of the run uses (so a shared engine needs no flush between cases). */
function freshId(): string {
  sequence += 1;
  return `contract-${process.pid}-${Date.now()}-${sequence}`;
}

/** Runs the `ReplayCache` contract against the caches `make` builds (a fresh one per case). */
export function replayCacheContract(
  label: string,
  make: (clock: ManualClock) => ContractSubject | Promise<ContractSubject>,
): void {
  describe(`the ReplayCache contract: ${label}`, () => {
    const minute = 60_000;

    it("answers true the first time an id is marked and false every time after", async () => {
      const clock = manualClock();
      const { cache } = await make(clock);
      const id = freshId();
      await expect(cache.markUsed(id, clock.now() + minute)).resolves.toBe(true);
      await expect(cache.markUsed(id, clock.now() + minute)).resolves.toBe(false);
      await expect(cache.markUsed(id, clock.now() + 2 * minute)).resolves.toBe(false);
    });

    it("keeps ids apart", async () => {
      const clock = manualClock();
      const { cache } = await make(clock);
      const [a, b] = [freshId(), freshId()];
      await expect(cache.markUsed(a, clock.now() + minute)).resolves.toBe(true);
      await expect(cache.markUsed(b, clock.now() + minute)).resolves.toBe(true);
    });

    it("lets exactly one of many concurrent marks of one id be the first", async () => {
      const clock = manualClock();
      const { cache } = await make(clock);
      const id = freshId();
      const firsts = await Promise.all(
        Array.from({ length: 16 }, () => cache.markUsed(id, clock.now() + minute)),
      );
      expect(firsts.filter(Boolean)).toHaveLength(1);
    });

    it("forgets an entry from its expiry on, and remembers it until then", async (context) => {
      const clock = manualClock();
      const { cache, advance } = await make(clock);
      if (advance === undefined) context.skip();
      const id = freshId();
      await expect(cache.markUsed(id, clock.now() + minute)).resolves.toBe(true);
      await advance?.(minute - 1);
      await expect(cache.markUsed(id, CONTRACT_START_MS + minute)).resolves.toBe(false);
      await advance?.(1);
      await expect(cache.markUsed(id, clock.now() + minute)).resolves.toBe(true);
      await expect(cache.markUsed(id, clock.now() + minute)).resolves.toBe(false);
    });

    it("does not store an id whose expiry has already passed", async () => {
      const clock = manualClock();
      const { cache } = await make(clock);
      const id = freshId();
      await expect(cache.markUsed(id, clock.now() - 1)).resolves.toBe(true);
      await expect(cache.markUsed(id, clock.now() + minute)).resolves.toBe(true);
    });
  });
}
