/**
 * The contract every `TaskStore` keeps (the guarantees of its TSDoc), as one suite to run against
 * each implementation: the in-memory default, a shared engine (Redis) in its own package. Call it
 * inside a test file:
 *
 * ```ts
 * taskStoreContract("MemoryTaskStore", (clock) => ({
 *   store: new MemoryTaskStore({ clock }),
 *   now: () => clock.now(),
 *   advance: (ms) => clock.advance(ms),
 * }));
 * ```
 *
 * `make` receives a {@link ManualClock}; an implementation that expires against it returns `now`
 * and `advance` reading and moving it, one whose engine keeps its own time returns the real clock
 * and a real wait of `ms` (and passes a `ttlMs` short enough for the run, with room for the
 * engine's latency: the cases wait 0.6 of it where a task must still be kept). Records are created
 * at `now()`.
 */
import { describe, expect, it } from "vitest";
import type { TaskRecord, TaskStore } from "../../packages/tsmcp/src/state/task-store.js";
import type { ManualClock } from "./replay-cache-contract.js";
import { manualClock } from "./replay-cache-contract.js";

/** What `make` builds: the store, its time, and optionally a second handle on the same data. */
export interface TaskStoreSubject {
  readonly store: TaskStore;
  /** The time the store expires against, epoch milliseconds. */
  readonly now: () => number;
  /** Moves the store's time `ms` milliseconds on (a manual clock), or waits that long (an engine's own time). */
  readonly advance: (ms: number) => void | Promise<void>;
  /** Another instance sharing the store's data (another connection, another process's view). */
  readonly peer: TaskStore;
  /**
   * A store of the same kind holding at most `maxTasks` tasks in all, on the same clock; needed
   * unless the options say `totalBounds: false`.
   */
  readonly bounded?: (maxTasks: number) => TaskStore;
  /**
   * A store of the same kind holding at most `maxBytes` bytes of records in all (each counted as
   * its JSON text in UTF-8), on the same clock; needed unless the options say `totalBounds: false`.
   */
  readonly boundedInBytes?: (maxBytes: number) => TaskStore;
}

/** Options of {@link taskStoreContract}. */
export interface TaskStoreContractOptions {
  /** The `ttlMs` of the tasks the expiry cases create. Default one minute. */
  readonly ttlMs?: number;
  /**
   * Whether the store bounds what it holds in all (tasks and bytes; `store_full`). Default true;
   * `false` (an engine bounded only by its own memory limit) leaves the `store_full` cases out.
   */
  readonly totalBounds?: boolean;
}

let sequence = 0;
/** A task id no other case of the run uses (so a shared engine needs no flush between cases). */
function freshId(): string {
  sequence += 1;
  return `contract-task-${process.pid}-${Date.now()}-${sequence}`;
}

/** An owner no other case of the run uses. */
function freshOwner(): string {
  sequence += 1;
  return `owner-${process.pid}-${Date.now()}-${sequence}`;
}

const HOUR = 3_600_000;
const LEASE = { holder: "replica-a", expiresAtMs: Date.UTC(2030, 0, 1) };

/** A working task created at `createdAtMs`, kept an hour, leased to `replica-a`. */
function task(owner: string, createdAtMs: number, overrides: Partial<TaskRecord> = {}): TaskRecord {
  return {
    taskId: freshId(),
    owner,
    status: "working",
    createdAtMs,
    lastUpdatedAtMs: createdAtMs,
    ttlMs: HOUR,
    pollIntervalMs: 1_000,
    lease: LEASE,
    request: {
      method: "tools/call",
      params: { name: "slow_compute", arguments: { values: [1, 2.5, "x"], nested: { empty: [] } } },
    },
    ...overrides,
  };
}

const CAP = { maxActivePerOwner: 100 };

/** Runs the `TaskStore` contract against the stores `make` builds (a fresh one per case). */
export function taskStoreContract(
  label: string,
  make: (clock: ManualClock) => TaskStoreSubject | Promise<TaskStoreSubject>,
  options: TaskStoreContractOptions = {},
): void {
  const ttlMs = options.ttlMs ?? 60_000;
  const alive = Math.round(ttlMs * 0.6);
  const build = () => make(manualClock());

  /** A subject with one task of a fresh owner stored. */
  async function withTask(overrides: Partial<TaskRecord> = {}) {
    const subject = await build();
    const owner = freshOwner();
    const record = task(owner, subject.now(), overrides);
    await expect(subject.store.create(record, CAP)).resolves.toBe("created");
    return { ...subject, owner, record, id: record.taskId };
  }

  describe(`the TaskStore contract: ${label}`, () => {
    describe("create and get", () => {
      it("gives back what create stored, and undefined for a task that never existed", async () => {
        const { store, record, id } = await withTask({
          statusMessage: "starting",
          inputRequests: { "elicit-1": { method: "elicitation/create", params: { message: "ok?" } } },
        });
        await expect(store.get(id)).resolves.toEqual(record);
        await expect(store.get(freshId())).resolves.toBeUndefined();
      });

      it("keeps no reference to what create was given, and hands out a fresh copy on every read", async () => {
        const { store, now } = await build();
        const given = task(freshOwner(), now()) as TaskRecord & { request: { params: { name: string } } };
        const expected = structuredClone(given);
        await store.create(given, CAP);
        given.request.params.name = "changed";
        const first = (await store.get(given.taskId)) as typeof given;
        expect(first).toEqual(expected);
        first.request.params.name = "mine";
        await expect(store.get(given.taskId)).resolves.toEqual(expected);
        const updated = (await store.update(given.taskId, { statusMessage: "half" })) as typeof given;
        updated.request.params.name = "theirs";
        await expect(store.get(given.taskId)).resolves.toEqual({ ...expected, statusMessage: "half" });
      });

      it("makes a created task visible to another instance sharing the store as soon as create resolved", async () => {
        const { store, peer, now } = await build();
        const record = task(freshOwner(), now());
        await expect(store.create(record, CAP)).resolves.toBe("created");
        await expect(peer.get(record.taskId)).resolves.toEqual(record);
        await peer.update(record.taskId, { status: "cancelled", lastUpdatedAtMs: now() });
        await expect(store.get(record.taskId)).resolves.toMatchObject({ status: "cancelled" });
      });
    });

    describe("expiry", () => {
      it("forgets a task at createdAtMs + ttlMs with no further call, and keeps it until then", async () => {
        const { store, now, advance, owner, id } = await withTask({ ttlMs });
        await advance(alive);
        await expect(store.get(id)).resolves.toMatchObject({ taskId: id });
        await advance(ttlMs - alive);
        await expect(store.get(id)).resolves.toBeUndefined();
        await expect(store.list(owner, { limit: 10 })).resolves.toEqual({ tasks: [] });
        await expect(store.update(id, { statusMessage: "late" })).resolves.toBeUndefined();
        await expect(store.addInputResponses(id, owner, { a: 1 }, now())).resolves.toBeUndefined();
        await expect(store.takeInputResponses(id, LEASE.holder)).resolves.toEqual({});
        await expect(store.get(id)).resolves.toBeUndefined();
      });

      it("counts the time to live from createdAtMs, not from the call to create", async () => {
        const { store, now, advance } = await build();
        const owner = freshOwner();
        const early = task(owner, now() - (ttlMs - alive), { ttlMs });
        await expect(store.create(early, CAP)).resolves.toBe("created");
        await expect(store.get(early.taskId)).resolves.toBeDefined();
        await advance(alive);
        await expect(store.get(early.taskId)).resolves.toBeUndefined();
      });

      it("keeps a task with no time to live after one with a ttlMs is gone", async () => {
        const { store, now, advance } = await build();
        const owner = freshOwner();
        const kept = task(owner, now(), { ttlMs: null });
        const gone = task(owner, now(), { ttlMs });
        await store.create(kept, CAP);
        await store.create(gone, CAP);
        await advance(ttlMs);
        await expect(store.get(gone.taskId)).resolves.toBeUndefined();
        await expect(store.get(kept.taskId)).resolves.toEqual(kept);
      });
      it("moves the expiry with a change of ttlMs, and keeps for good a task whose ttlMs becomes null", async () => {
        const { store, now, advance, owner, id } = await withTask({ ttlMs });
        const other = task(owner, now(), { ttlMs });
        await store.create(other, CAP);
        await expect(store.update(id, { ttlMs: ttlMs * 4 })).resolves.toMatchObject({ ttlMs: ttlMs * 4 });
        await expect(store.update(other.taskId, { ttlMs: null })).resolves.toMatchObject({ ttlMs: null });
        await advance(ttlMs);
        await expect(store.get(id)).resolves.toMatchObject({ ttlMs: ttlMs * 4 });
        await expect(store.get(other.taskId)).resolves.toMatchObject({ ttlMs: null });
        const page = await store.list(owner, { limit: 10 });
        expect(page.tasks.map((record) => record.taskId).sort()).toEqual([id, other.taskId].sort());
      });
    });

    describe("update", () => {
      it("applies the change, clears a field given null, and leaves the others as they were", async () => {
        const { store, record, id } = await withTask({ statusMessage: "starting" });
        const after = await store.update(id, {
          status: "input_required",
          statusMessage: null,
          lastUpdatedAtMs: record.createdAtMs + 5,
          pollIntervalMs: 250,
          lease: { holder: "replica-b", expiresAtMs: LEASE.expiresAtMs + 1 },
        });
        const { statusMessage: _cleared, ...rest } = record;
        const expected = {
          ...rest,
          status: "input_required",
          lastUpdatedAtMs: record.createdAtMs + 5,
          pollIntervalMs: 250,
          lease: { holder: "replica-b", expiresAtMs: LEASE.expiresAtMs + 1 },
        };
        expect(after).toEqual(expected);
        expect(after?.statusMessage).toBeUndefined();
        await expect(store.get(id)).resolves.toEqual(expected);
        await expect(store.update(freshId(), { statusMessage: "x" })).resolves.toBeUndefined();
      });

      it("makes a terminal status final: later updates change nothing and resolve undefined", async () => {
        const { store, id } = await withTask({ inputRequests: { a: { q: 1 } } });
        const result = { content: [{ type: "text", text: "done" }], structuredContent: { list: [] } };
        const done = await store.update(id, { status: "completed", result, statusMessage: "done" });
        expect(done).toMatchObject({ status: "completed", result, statusMessage: "done" });
        // Terminal clears the outstanding requests, the answers and the lease.
        expect(done?.inputRequests).toBeUndefined();
        expect(done?.inputResponses).toBeUndefined();
        expect(done?.lease).toBeUndefined();
        for (const change of [
          { status: "working" as const },
          { status: "cancelled" as const },
          { statusMessage: "again" },
          { addInputRequests: { b: 2 } },
        ]) {
          await expect(store.update(id, change)).resolves.toBeUndefined();
        }
        await expect(store.get(id)).resolves.toEqual(done);
      });

      it("keeps the failed task's error", async () => {
        const { store, id } = await withTask();
        const error = { code: -32603, message: "boom", data: { where: ["a", 1] } };
        await expect(store.update(id, { status: "failed", error })).resolves.toMatchObject({
          status: "failed",
          error,
        });
        await expect(store.get(id)).resolves.toMatchObject({ status: "failed", error });
      });

      it("lets exactly one of many concurrent terminal updates win", async () => {
        const { store, id } = await withTask();
        const outcomes = await Promise.all(
          Array.from({ length: 16 }, (_, n) =>
            store.update(
              id,
              n % 2 === 0
                ? { status: "completed", result: { n } }
                : { status: "cancelled", statusMessage: `cancel ${n}` },
            ),
          ),
        );
        const winners = outcomes.filter((outcome) => outcome !== undefined);
        expect(winners).toHaveLength(1);
        await expect(store.get(id)).resolves.toEqual(winners[0]);
      });

      it("serialises concurrent updates: each sees the previous one's record, none after a cancel lands", async () => {
        const { store, id } = await withTask();
        const outcomes = await Promise.all([
          ...Array.from({ length: 12 }, (_, n) => store.update(id, { addInputRequests: { [`k${n}`]: n } })),
          store.update(id, { status: "cancelled" }),
          ...Array.from({ length: 12 }, (_, n) => store.update(id, { addInputRequests: { [`j${n}`]: n } })),
        ]);
        const cancelled = outcomes[12];
        expect(cancelled?.status).toBe("cancelled");
        const before = outcomes.filter((outcome, n) => n !== 12 && outcome !== undefined);
        // Every update applied before the cancel kept the earlier ones' keys (no lost update).
        const sizes = before
          .map((outcome) => Object.keys(outcome?.inputRequests ?? {}).length)
          .sort((a, b) => a - b);
        expect(sizes).toEqual(Array.from({ length: before.length }, (_, n) => n + 1));
        for (const outcome of before) expect(outcome?.status).toBe("working");
        await expect(store.get(id)).resolves.toEqual(cancelled);
      });

      it("keeps every one of many concurrent additions of input requests", async () => {
        const { store, id } = await withTask();
        await Promise.all(
          Array.from({ length: 16 }, (_, n) =>
            store.update(id, { status: "input_required", addInputRequests: { [`key-${n}`]: { n } } }),
          ),
        );
        const stored = await store.get(id);
        expect(Object.keys(stored?.inputRequests ?? {}).sort()).toEqual(
          Array.from({ length: 16 }, (_, n) => `key-${n}`).sort(),
        );
      });
    });

    describe("update's preconditions", () => {
      it("applies the change only for the expected owner", async () => {
        const { store, owner, id } = await withTask();
        await expect(
          store.update(id, { statusMessage: "x" }, { owner: freshOwner() }),
        ).resolves.toBeUndefined();
        await expect(store.get(id)).resolves.not.toHaveProperty("statusMessage");
        await expect(store.update(id, { statusMessage: "y" }, { owner })).resolves.toMatchObject({
          statusMessage: "y",
        });
      });

      it("applies the change only while the expected replica holds the lease", async () => {
        const { store, id } = await withTask();
        await expect(
          store.update(id, { statusMessage: "x" }, { leaseHolder: "replica-b" }),
        ).resolves.toBeUndefined();
        const renewed = { holder: LEASE.holder, expiresAtMs: LEASE.expiresAtMs + 5_000 };
        await expect(
          store.update(id, { lease: renewed }, { leaseHolder: LEASE.holder }),
        ).resolves.toMatchObject({ lease: renewed });
        await store.update(id, { lease: null });
        await expect(
          store.update(id, { statusMessage: "x" }, { leaseHolder: LEASE.holder }),
        ).resolves.toBeUndefined();
        await expect(store.get(id)).resolves.not.toHaveProperty("statusMessage");
      });

      it("applies the change only for exactly the expected lease, so one replica fails a lapsed task", async () => {
        const { store, owner, id } = await withTask();
        const failure = { status: "failed" as const, error: { code: -32603, message: "the server stopped" } };
        await expect(
          store.update(id, failure, { lease: { holder: LEASE.holder, expiresAtMs: LEASE.expiresAtMs + 1 } }),
        ).resolves.toBeUndefined();
        await expect(
          store.update(id, failure, { lease: { holder: "replica-b", expiresAtMs: LEASE.expiresAtMs } }),
        ).resolves.toBeUndefined();
        const outcomes = await Promise.all(
          Array.from({ length: 8 }, () => store.update(id, failure, { lease: LEASE, owner })),
        );
        expect(outcomes.filter((outcome) => outcome !== undefined)).toHaveLength(1);
        await expect(store.get(id)).resolves.toMatchObject({ status: "failed" });
      });

      it("fails the exact-lease and lease-holder preconditions of a task without a lease", async () => {
        const { store, id } = await withTask({ lease: undefined });
        await expect(store.update(id, { statusMessage: "x" }, { lease: LEASE })).resolves.toBeUndefined();
        await expect(
          store.update(id, { statusMessage: "x" }, { leaseHolder: LEASE.holder }),
        ).resolves.toBeUndefined();
        await expect(store.get(id)).resolves.not.toHaveProperty("statusMessage");
      });
    });

    describe("input requests", () => {
      it("merges added requests with those outstanding, withdraws removed ones after adding, and drops an empty map", async () => {
        const { store, id } = await withTask({ status: "input_required", inputRequests: { a: { n: 1 } } });
        await expect(store.update(id, { addInputRequests: { b: { n: 2 } } })).resolves.toMatchObject({
          inputRequests: { a: { n: 1 }, b: { n: 2 } },
        });
        const replaced = await store.update(id, {
          addInputRequests: { b: { n: 3 }, c: { n: 4 } },
          removeInputRequests: ["a", "c", "missing"],
        });
        expect(replaced?.inputRequests).toEqual({ b: { n: 3 } });
        const emptied = await store.update(id, { removeInputRequests: ["b"] });
        expect(emptied?.inputRequests).toBeUndefined();
        await expect(store.get(id)).resolves.not.toHaveProperty("inputRequests");
      });

      it("never brings back a request answered meanwhile when more are added", async () => {
        const { store, owner, now, id } = await withTask({
          status: "input_required",
          inputRequests: { a: 1, b: 2 },
        });
        await store.addInputResponses(id, owner, { a: "yes" }, now());
        const after = await store.update(id, { addInputRequests: { c: 3 } });
        expect(after?.inputRequests).toEqual({ b: 2, c: 3 });
        expect(after?.inputResponses).toEqual({ a: "yes" });
      });
    });

    describe("addInputResponses", () => {
      it("moves only the outstanding keys into inputResponses, ignores the others, and stamps lastUpdatedAtMs", async () => {
        const { store, owner, record, id } = await withTask({
          status: "input_required",
          inputRequests: { a: { q: 1 }, b: { q: 2 } },
        });
        const at = record.createdAtMs + 10;
        const after = await store.addInputResponses(
          id,
          owner,
          { a: { action: "accept" }, zzz: "ignored" },
          at,
        );
        expect(after).toMatchObject({
          status: "input_required",
          inputRequests: { b: { q: 2 } },
          inputResponses: { a: { action: "accept" } },
          lastUpdatedAtMs: at,
        });
        await expect(store.get(id)).resolves.toEqual(after);
      });

      it("turns the task back to working once no request is outstanding", async () => {
        const { store, owner, now, id } = await withTask({
          status: "input_required",
          inputRequests: { a: 1, b: 2 },
        });
        const after = await store.addInputResponses(id, owner, { a: "A", b: "B" }, now());
        expect(after?.status).toBe("working");
        expect(after?.inputRequests).toBeUndefined();
        expect(after?.inputResponses).toEqual({ a: "A", b: "B" });
      });

      it("keeps the first answer of a key: a second one, also concurrent, is ignored", async () => {
        const { store, owner, now, id } = await withTask({
          status: "input_required",
          inputRequests: { a: 1 },
        });
        await Promise.all(
          Array.from({ length: 8 }, (_, n) =>
            store.addInputResponses(id, owner, { a: `answer ${n}` }, now()),
          ),
        );
        const first = (await store.get(id))?.inputResponses?.a;
        expect(first).toMatch(/^answer \d$/);
        await store.addInputResponses(id, owner, { a: "late" }, now());
        await expect(store.get(id)).resolves.toMatchObject({ inputResponses: { a: first } });
      });

      it("leaves another owner's task untouched and answers undefined, like an unknown task", async () => {
        const { store, record, now, id } = await withTask({
          status: "input_required",
          inputRequests: { a: 1 },
        });
        await expect(store.addInputResponses(id, freshOwner(), { a: "x" }, now())).resolves.toBeUndefined();
        await expect(
          store.addInputResponses(freshId(), record.owner, { a: "x" }, now()),
        ).resolves.toBeUndefined();
        await expect(store.get(id)).resolves.toEqual(record);
      });

      it("returns a terminal task unchanged", async () => {
        const { store, owner, now, id } = await withTask({
          status: "input_required",
          inputRequests: { a: 1 },
        });
        const cancelled = await store.update(id, { status: "cancelled" });
        await expect(store.addInputResponses(id, owner, { a: "x" }, now() + 1)).resolves.toEqual(cancelled);
        await expect(store.get(id)).resolves.toEqual(cancelled);
      });
    });

    it("treats any input key as data, __proto__ included", async () => {
      const requests = JSON.parse('{"__proto__": {"q": 1}, "b": 2}') as Record<string, unknown>;
      const { store, owner, now, id } = await withTask({ status: "input_required", inputRequests: requests });
      const answered = await store.addInputResponses(id, owner, JSON.parse('{"__proto__": "A"}'), now());
      expect(Object.keys(answered?.inputRequests ?? {})).toEqual(["b"]);
      expect(Object.keys(answered?.inputResponses ?? {})).toEqual(["__proto__"]);
      const taken = await store.takeInputResponses(id, LEASE.holder);
      expect(Object.hasOwn(taken, "__proto__")).toBe(true);
      expect(Object.getPrototypeOf(taken)).toBe(Object.prototype);
    });

    describe("takeInputResponses", () => {
      it("hands the answers to the lease holder once, and nothing to anyone else", async () => {
        const { store, owner, now, id } = await withTask({
          status: "input_required",
          inputRequests: { a: 1, b: 2 },
        });
        await store.addInputResponses(id, owner, { a: "A" }, now());
        await expect(store.takeInputResponses(id, "replica-b")).resolves.toEqual({});
        await expect(store.takeInputResponses(id, LEASE.holder)).resolves.toEqual({ a: "A" });
        await expect(store.takeInputResponses(id, LEASE.holder)).resolves.toEqual({});
        await expect(store.get(id)).resolves.not.toHaveProperty("inputResponses");
        await store.addInputResponses(id, owner, { b: "B" }, now());
        await expect(store.takeInputResponses(id, LEASE.holder)).resolves.toEqual({ b: "B" });
        await expect(store.takeInputResponses(freshId(), LEASE.holder)).resolves.toEqual({});
      });

      it("hands each answer to exactly one of many concurrent takes", async () => {
        const { store, owner, now, id } = await withTask({
          status: "input_required",
          inputRequests: { a: 1, b: 2, c: 3 },
        });
        const taking = Array.from({ length: 8 }, () => store.takeInputResponses(id, LEASE.holder));
        await Promise.all([
          store.addInputResponses(id, owner, { a: "A" }, now()),
          store.addInputResponses(id, owner, { b: "B", c: "C" }, now()),
        ]);
        taking.push(...Array.from({ length: 8 }, () => store.takeInputResponses(id, LEASE.holder)));
        const taken = await Promise.all(taking);
        const keys = taken.flatMap((answers) => Object.keys(answers)).sort();
        expect(keys).toEqual(["a", "b", "c"]);
        expect(Object.assign({}, ...taken)).toEqual({ a: "A", b: "B", c: "C" });
      });
    });

    describe("list", () => {
      it("lists the owner's tasks only, newest first, in pages of limit with opaque cursors", async () => {
        const { store, now } = await build();
        const owner = freshOwner();
        const base = now();
        const mine = Array.from({ length: 5 }, (_, n) => task(owner, base + n));
        for (const record of mine) await store.create(record, CAP);
        await store.create(task(freshOwner(), base + 10), CAP);
        await store.update(mine[1]?.taskId as string, { status: "completed", result: {} });
        const seen: TaskRecord[] = [];
        let cursor: string | undefined;
        const sizes: number[] = [];
        do {
          const page = await store.list(owner, { cursor, limit: 2 });
          sizes.push(page.tasks.length);
          seen.push(...page.tasks);
          cursor = page.nextCursor;
          if (cursor !== undefined) expect(typeof cursor).toBe("string");
        } while (cursor !== undefined);
        expect(sizes).toEqual([2, 2, 1]);
        expect(seen.map((record) => record.taskId)).toEqual(mine.map((record) => record.taskId).reverse());
        expect(seen[3]).toMatchObject({ status: "completed", result: {} });
        expect(seen[0]).toEqual(mine[4]);
        await expect(store.list(freshOwner(), { limit: 10 })).resolves.toEqual({ tasks: [] });
      });

      it("has no next cursor when the last page is full", async () => {
        const { store, now } = await build();
        const owner = freshOwner();
        for (let n = 0; n < 2; n++) await store.create(task(owner, now() + n), CAP);
        const page = await store.list(owner, { limit: 2 });
        expect(page.tasks).toHaveLength(2);
        expect(page.nextCursor).toBeUndefined();
      });

      it("skips expired tasks, and goes on from a cursor whose task expired meanwhile", async () => {
        const { store, now, advance } = await build();
        const owner = freshOwner();
        const base = now();
        const ttls = [null, ttlMs, null, ttlMs, null];
        const mine = ttls.map((ttl, n) => task(owner, base + n, { ttlMs: ttl }));
        for (const record of mine) await store.create(record, CAP);
        const first = await store.list(owner, { limit: 2 });
        expect(first.tasks.map((record) => record.taskId)).toEqual([mine[4]?.taskId, mine[3]?.taskId]);
        await advance(ttlMs + 5);
        const second = await store.list(owner, { cursor: first.nextCursor, limit: 2 });
        expect(second.tasks.map((record) => record.taskId)).toEqual([mine[2]?.taskId, mine[0]?.taskId]);
        expect(second.nextCursor).toBeUndefined();
        const all = await store.list(owner, { limit: 10 });
        expect(all.tasks.map((record) => record.taskId)).toEqual(
          [mine[4], mine[2], mine[0]].map((r) => r?.taskId),
        );
      });
    });

    describe("the per-owner bound", () => {
      it("answers owner_limit at maxActivePerOwner non-terminal tasks, counting neither terminal, expired nor other owners' ones", async () => {
        const { store, now, advance } = await build();
        const owner = freshOwner();
        const cap = { maxActivePerOwner: 3 };
        const short = task(owner, now(), { ttlMs });
        await expect(store.create(short, cap)).resolves.toBe("created");
        const first = task(owner, now());
        await expect(store.create(first, cap)).resolves.toBe("created");
        await expect(store.create(task(owner, now(), { status: "input_required" }), cap)).resolves.toBe(
          "created",
        );
        await expect(store.create(task(owner, now()), cap)).resolves.toBe("owner_limit");
        await expect(store.create(task(freshOwner(), now()), cap)).resolves.toBe("created");
        await store.update(first.taskId, { status: "completed", result: {} });
        const next = task(owner, now());
        await expect(store.create(next, cap)).resolves.toBe("created");
        await expect(store.create(task(owner, now()), cap)).resolves.toBe("owner_limit");
        await expect(store.get(next.taskId)).resolves.toBeDefined();
        await advance(ttlMs);
        await expect(store.create(task(owner, now()), cap)).resolves.toBe("created");
        await expect(store.create(task(owner, now()), cap)).resolves.toBe("owner_limit");
      });

      it("counts a running task only while its lease holds: a lapsed lease frees its slot, a renewed one and none keep it", async () => {
        const { store, now, advance } = await build();
        const owner = freshOwner();
        const cap = { maxActivePerOwner: 3 };
        const leased = () => ({ holder: "replica-dead", expiresAtMs: now() + ttlMs });
        const lapsing = task(owner, now(), { lease: leased() });
        const renewed = task(owner, now(), { lease: leased() });
        const unleased = task(owner, now(), { lease: undefined });
        for (const record of [lapsing, renewed, unleased]) {
          await expect(store.create(record, cap)).resolves.toBe("created");
        }
        await expect(store.create(task(owner, now()), cap)).resolves.toBe("owner_limit");
        await advance(alive);
        const lease = { holder: "replica-dead", expiresAtMs: now() + HOUR };
        await expect(store.update(renewed.taskId, { lease })).resolves.toMatchObject({ lease });
        await advance(ttlMs - alive);
        // The lapsed task is still there, not terminal: only its slot is free.
        await expect(store.get(lapsing.taskId)).resolves.toMatchObject({ status: "working" });
        await expect(store.create(task(owner, now()), cap)).resolves.toBe("created");
        await expect(store.create(task(owner, now()), cap)).resolves.toBe("owner_limit");
      });

      it("counts atomically: of many concurrent creates one below the bound, exactly one is created", async () => {
        const { store, now } = await build();
        const owner = freshOwner();
        const cap = { maxActivePerOwner: 4 };
        for (let n = 0; n < 3; n++) await store.create(task(owner, now()), cap);
        const racing = Array.from({ length: 12 }, () => task(owner, now()));
        const outcomes = await Promise.all(racing.map((record) => store.create(record, cap)));
        expect(outcomes.filter((outcome) => outcome === "created")).toHaveLength(1);
        expect(outcomes.filter((outcome) => outcome === "owner_limit")).toHaveLength(11);
        const winner = racing[outcomes.indexOf("created")] as TaskRecord;
        await expect(store.get(winner.taskId)).resolves.toEqual(winner);
        const losers = racing.filter((record) => record !== winner);
        for (const record of losers) await expect(store.get(record.taskId)).resolves.toBeUndefined();
        await expect(store.list(owner, { limit: 100 })).resolves.toMatchObject({ tasks: { length: 4 } });
      });
    });

    if (options.totalBounds === false) return;

    it("answers store_full when every task held is live and running, dropping none", async () => {
      const { bounded, now } = await build();
      if (bounded === undefined) throw new Error(`${label}: the subject has no bounded(maxTasks)`);
      const store = bounded(2);
      const held = [task(freshOwner(), now()), task(freshOwner(), now(), { status: "input_required" })];
      for (const record of held) await expect(store.create(record, CAP)).resolves.toBe("created");
      const refused = task(freshOwner(), now());
      await expect(store.create(refused, CAP)).resolves.toBe("store_full");
      await expect(store.get(refused.taskId)).resolves.toBeUndefined();
      for (const record of held) await expect(store.get(record.taskId)).resolves.toEqual(record);
    });

    it("answers store_full when the running tasks held fill its bytes, dropping none", async () => {
      const { boundedInBytes, now } = await build();
      if (boundedInBytes === undefined) {
        throw new Error(`${label}: the subject has no boundedInBytes(maxBytes)`);
      }
      const held = [task(freshOwner(), now()), task(freshOwner(), now(), { status: "input_required" })];
      const bytes = held.reduce(
        (sum, record) => sum + new TextEncoder().encode(JSON.stringify(record)).length,
        0,
      );
      const store = boundedInBytes(bytes);
      for (const record of held) await expect(store.create(record, CAP)).resolves.toBe("created");
      const refused = task(freshOwner(), now(), { request: {} });
      await expect(store.create(refused, CAP)).resolves.toBe("store_full");
      await expect(store.get(refused.taskId)).resolves.toBeUndefined();
      for (const record of held) await expect(store.get(record.taskId)).resolves.toEqual(record);
    });
  });
}
