/**
 * The contract every `EventStore` keeps (the guarantees of its TSDoc), as one suite to run against
 * each implementation: the in-memory default, a shared engine (Redis Streams) in its own package.
 * Call it inside a test file:
 *
 * ```ts
 * eventStoreContract("MemoryEventStore", ({ clock, ttlMs, maxEventsPerStream }) => ({
 *   store: new MemoryEventStore({ clock, ttlMs, maxEventsPerStream }),
 *   advance: (ms) => clock.advance(ms),
 * }));
 * ```
 *
 * `make` receives the bounds to build the store with and a {@link ManualClock}; an implementation
 * that expires against it returns `advance` moving it on, one whose engine keeps its own time
 * returns a real wait of `ms` (and passes a `ttlMs` short enough for the run, with room for the
 * engine's latency: the cases wait 0.6 of it where a stream must still be kept).
 */
import { describe, expect, it } from "vitest";
import type { JSONRPCMessage } from "../../packages/tsmcp/src/protocol/jsonrpc.js";
import { type EventStore, splitEventId } from "../../packages/tsmcp/src/state/event-store.js";
import { type ManualClock, manualClock } from "./replay-cache-contract.js";

/** What `make` is given: the bounds of the store to build, and a clock it may expire against. */
export interface EventStoreContractSetup {
  readonly clock: ManualClock;
  /** Milliseconds a stream is kept after its last append. */
  readonly ttlMs: number;
  /** Events kept per stream. */
  readonly maxEventsPerStream: number;
}

/** What `make` builds: the store, how its time moves on, and optionally a second handle on the same data. */
export interface EventStoreSubject {
  readonly store: EventStore;
  /** Moves the store's time `ms` milliseconds on (a manual clock), or waits that long (an engine's own time). */
  readonly advance: (ms: number) => void | Promise<void>;
  /** Another instance sharing the store's data (another connection, another process's view). */
  readonly peer?: EventStore;
}

/** Options of {@link eventStoreContract}. */
export interface EventStoreContractOptions {
  /** The `ttlMs` the stores are built with. Default one minute. */
  readonly ttlMs?: number;
}

let sequence = 0;
/** A session id no other case of the run uses (so a shared engine needs no flush between cases). */
function freshSession(): string {
  sequence += 1;
  return `contract-events-${process.pid}-${Date.now()}-${sequence}`;
}

/** A notification numbered `n`. */
function note(n: number): JSONRPCMessage {
  return { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: { n } } };
}

/** Runs the `EventStore` contract against the stores `make` builds (a fresh one per case). */
export function eventStoreContract(
  label: string,
  make: (setup: EventStoreContractSetup) => EventStoreSubject | Promise<EventStoreSubject>,
  options: EventStoreContractOptions = {},
): void {
  const ttlMs = options.ttlMs ?? 60_000;
  const build = (maxEventsPerStream = 100) => make({ clock: manualClock(), ttlMs, maxEventsPerStream });

  describe(`the EventStore contract: ${label}`, () => {
    it("hands out ids {streamId}_{position} that name their stream, unique within the session", async () => {
      const { store } = await build();
      const session = freshSession();
      const ids: string[] = [];
      for (const stream of ["0", "a_b", "request-7"]) {
        for (let n = 0; n < 3; n++) {
          const id = await store.append(session, stream, n === 0 ? undefined : note(n));
          expect(splitEventId(id)).toEqual({ streamId: stream, position: expect.any(String) });
          expect(splitEventId(id)?.position).not.toContain("_");
          ids.push(id);
        }
      }
      expect(new Set(ids).size).toBe(ids.length);
    });

    it("replays what followed an id on its stream only, oldest first, a priming event without a message", async () => {
      const { store } = await build();
      const session = freshSession();
      const primed = await store.append(session, "s1", undefined);
      await store.append(session, "s2", note(100));
      const one = await store.append(session, "s1", note(1));
      await store.append(session, "s2", note(101));
      const two = await store.append(session, "s1", note(2));
      const priming = await store.append(session, "s1", undefined);
      await expect(store.after(session, primed)).resolves.toEqual({
        streamId: "s1",
        events: [
          { id: one, message: note(1) },
          { id: two, message: note(2) },
          { id: priming, message: undefined },
        ],
      });
      await expect(store.after(session, two)).resolves.toEqual({
        streamId: "s1",
        events: [{ id: priming, message: undefined }],
      });
      await expect(store.after(session, priming)).resolves.toEqual({ streamId: "s1", events: [] });
    });

    it("gives events back in the order their appends resolved, concurrent appends included", async () => {
      const { store } = await build();
      const session = freshSession();
      const start = await store.append(session, "s", undefined);
      const resolved: string[] = [];
      await Promise.all(
        Array.from({ length: 20 }, (_, n) =>
          store.append(session, "s", note(n)).then((id) => resolved.push(id)),
        ),
      );
      const after = await store.after(session, start);
      expect(after?.events.map((event) => event.id)).toEqual(resolved);
    });

    it("keeps copies: changing a message after append or after reading it changes nothing stored", async () => {
      const { store } = await build();
      const session = freshSession();
      const start = await store.append(session, "s", undefined);
      const message = note(1) as unknown as { params: { data: { n: number } } };
      await store.append(session, "s", message as unknown as JSONRPCMessage);
      message.params.data.n = 99;
      const first = await store.after(session, start);
      const read = first?.events[0]?.message as unknown as { params: { data: { n: number } } };
      read.params.data.n = 42;
      await expect(store.after(session, start)).resolves.toMatchObject({ events: [{ message: note(1) }] });
    });

    it("keeps at most maxEventsPerStream per stream, oldest dropped, and resumes from before them with the kept ones", async () => {
      const { store } = await build(3);
      const session = freshSession();
      const start = await store.append(session, "s", undefined);
      const ids: string[] = [];
      for (let n = 1; n <= 5; n++) ids.push(await store.append(session, "s", note(n)));
      await expect(store.after(session, start)).resolves.toEqual({
        streamId: "s",
        events: [3, 4, 5].map((n) => ({ id: ids[n - 1], message: note(n) })),
      });
      await expect(store.after(session, ids[3] as string)).resolves.toEqual({
        streamId: "s",
        events: [{ id: ids[4], message: note(5) }],
      });
    });

    it("knows no malformed id, no stream it never kept, no id of another session", async () => {
      const { store } = await build();
      const session = freshSession();
      const id = await store.append(session, "s", note(1));
      for (const unknown of ["", "s", "s_", "_1", "nowhere_1", `${id}x`]) {
        await expect(store.after(session, unknown)).resolves.toBeUndefined();
      }
      await expect(store.after(freshSession(), id)).resolves.toBeUndefined();
    });

    it("knows no place beyond the last event of a stream (an id never handed out)", async () => {
      const { store } = await build();
      const session = freshSession();
      await store.append(session, "short", note(0));
      const last = await store.append(session, "short", note(1));
      let later = "";
      for (let n = 0; n < 5; n++) later = await store.append(session, "long", note(n));
      const beyond = `short_${splitEventId(later)?.position}`;
      expect(beyond).not.toBe(last);
      await expect(store.after(session, beyond)).resolves.toBeUndefined();
      await expect(store.after(session, last)).resolves.toEqual({ streamId: "short", events: [] });
    });

    it("forgets one stream on dropStream and every stream of a session on dropSession, not another session's", async () => {
      const { store } = await build();
      const [session, other] = [freshSession(), freshSession()];
      const a = await store.append(session, "a", note(1));
      const b = await store.append(session, "b", note(2));
      const c = await store.append(session, "c", note(3));
      const kept = await store.append(other, "a", note(4));
      await store.dropStream(session, "a");
      await expect(store.after(session, a)).resolves.toBeUndefined();
      await expect(store.after(session, b)).resolves.toEqual({ streamId: "b", events: [] });
      await store.dropSession(session);
      await expect(store.after(session, b)).resolves.toBeUndefined();
      await expect(store.after(session, c)).resolves.toBeUndefined();
      await expect(store.after(other, kept)).resolves.toEqual({ streamId: "a", events: [] });
      await store.dropSession(freshSession());
      await store.dropStream(other, "never");
    });

    it("lets another instance sharing the store resume a stream", async (context) => {
      const { store, peer } = await build();
      if (peer === undefined) context.skip();
      const session = freshSession();
      const start = await store.append(session, "s", undefined);
      const id = await store.append(session, "s", note(1));
      await expect(peer?.after(session, start)).resolves.toEqual({
        streamId: "s",
        events: [{ id, message: note(1) }],
      });
    });

    it("forgets a stream ttlMs after its last append, and each append restarts that time", async () => {
      const { store, advance } = await build();
      const session = freshSession();
      const first = await store.append(session, "s", undefined);
      await advance(Math.round(ttlMs * 0.6));
      const second = await store.append(session, "s", note(1));
      await advance(Math.round(ttlMs * 0.6));
      await expect(store.after(session, first)).resolves.toEqual({
        streamId: "s",
        events: [{ id: second, message: note(1) }],
      });
      await advance(ttlMs);
      await expect(store.after(session, first)).resolves.toBeUndefined();
      await expect(store.after(session, second)).resolves.toBeUndefined();
    });

    it("appends once per key: a key used again, on any instance, even concurrently, stores nothing", async () => {
      const { store, peer } = await build();
      const session = freshSession();
      const start = await store.append(session, "0", undefined);
      const other = peer ?? store;
      const ids = await Promise.all([
        store.appendOnce(session, "0", "broadcast-1", note(1)),
        other.appendOnce(session, "0", "broadcast-1", note(1)),
        store.appendOnce(session, "0", "broadcast-1", note(1)),
      ]);
      const stored = ids.filter((id) => id !== undefined);
      expect(stored).toHaveLength(1);
      expect(splitEventId(stored[0] as string)?.streamId).toBe("0");
      const next = await other.appendOnce(session, "0", "broadcast-2", note(2));
      await expect(store.appendOnce(session, "0", "broadcast-1", note(3))).resolves.toBeUndefined();
      await expect(store.after(session, start)).resolves.toEqual({
        streamId: "0",
        events: [
          { id: stored[0], message: note(1) },
          { id: next, message: note(2) },
        ],
      });
      // Another session's keys are its own.
      const elsewhere = freshSession();
      await expect(store.appendOnce(elsewhere, "0", "broadcast-1", note(1))).resolves.toEqual(
        expect.any(String),
      );
    });

    it("forgets appendOnce keys with their stream: dropped or expired, a key appends again", async () => {
      const { store, advance } = await build();
      const session = freshSession();
      await expect(store.appendOnce(session, "s", "k", note(1))).resolves.toEqual(expect.any(String));
      await store.dropStream(session, "s");
      await expect(store.appendOnce(session, "s", "k", note(2))).resolves.toEqual(expect.any(String));
      await advance(ttlMs);
      // A plain append first: the stream it starts afresh keeps none of the forgotten keys.
      await store.append(session, "s", undefined);
      const again = await store.appendOnce(session, "s", "k", note(3));
      expect(again).toEqual(expect.any(String));
      await expect(store.after(session, again as string)).resolves.toEqual({ streamId: "s", events: [] });
    });

    it("never brings back the events of a forgotten stream when that stream is appended to again", async () => {
      const { store, advance } = await build();
      const session = freshSession();
      const first = await store.append(session, "s", note(1));
      const forgotten = await store.append(session, "s", note(2));
      await advance(ttlMs);
      const fresh = await store.append(session, "s", note(3));
      expect(fresh).not.toBe(first);
      expect(fresh).not.toBe(forgotten);
      const after = await store.after(session, first);
      expect(after?.events ?? []).toEqual(after === undefined ? [] : [{ id: fresh, message: note(3) }]);
      await expect(store.after(session, fresh)).resolves.toEqual({ streamId: "s", events: [] });
    });
  });
}
