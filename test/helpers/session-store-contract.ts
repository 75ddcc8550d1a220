/**
 * The contract every `SessionStore` keeps (the guarantees of its TSDoc), as one suite to run against
 * each implementation: the in-memory default, a shared engine (Redis) in its own package. Call it
 * inside a test file:
 *
 * ```ts
 * sessionStoreContract("MemorySessionStore", (clock) => ({
 *   store: new MemorySessionStore({ clock }),
 *   advance: (ms) => clock.advance(ms),
 * }));
 * ```
 *
 * `make` receives a {@link ManualClock}; an implementation that expires against it returns
 * `advance` moving it on, one whose engine keeps its own time returns a real wait of `ms` (and
 * passes an `idleTimeoutMs` short enough for the run, with room for the engine's latency: the
 * cases wait 0.6 of it where a session must still be alive).
 */
import { describe, expect, it } from "vitest";
import type { SessionRecord, SessionStore } from "../../packages/tsmcp/src/state/session-store.js";
import { type ManualClock, manualClock } from "./replay-cache-contract.js";

/** What `make` builds: the store, how its time moves on, and optionally a second handle on the same data. */
export interface SessionStoreSubject {
  readonly store: SessionStore;
  /** Moves the store's time `ms` milliseconds on (a manual clock), or waits that long (an engine's own time). */
  readonly advance: (ms: number) => void | Promise<void>;
  /** Another instance sharing the store's data (another connection, another process's view). */
  readonly peer?: SessionStore;
}

/** Options of {@link sessionStoreContract}. */
export interface SessionStoreContractOptions {
  /** The idle timeout the cases use, milliseconds. Default one minute. */
  readonly idleTimeoutMs?: number;
}

let sequence = 0;
/** A session id no other case of the run uses (so a shared engine needs no flush between cases). */
function freshId(): string {
  sequence += 1;
  return `contract-session-${process.pid}-${Date.now()}-${sequence}`;
}

/** A record as `initialize` leaves it. */
function record(overrides: Partial<SessionRecord> = {}): SessionRecord {
  return {
    principal: "sha256:principal",
    protocolVersion: "2025-11-25",
    clientInfo: { name: "contract-client", version: "1.0.0" },
    clientCapabilities: { elicitation: { form: {} }, roots: { listChanged: true } },
    initialized: false,
    resourceSubscriptions: [],
    ...overrides,
  };
}

/** Runs the `SessionStore` contract against the stores `make` builds (a fresh one per case). */
export function sessionStoreContract(
  label: string,
  make: (clock: ManualClock) => SessionStoreSubject | Promise<SessionStoreSubject>,
  options: SessionStoreContractOptions = {},
): void {
  const idle = options.idleTimeoutMs ?? 60_000;
  const alive = Math.round(idle * 0.6);

  describe(`the SessionStore contract: ${label}`, () => {
    it("gives back what create stored, and undefined for a session that never existed", async () => {
      const { store } = await make(manualClock());
      const id = freshId();
      const created = record({ logLevel: "info", standaloneCursor: "0_1" });
      await store.create(id, created, idle);
      await expect(store.get(id, idle)).resolves.toEqual(created);
      await expect(store.get(freshId(), idle)).resolves.toBeUndefined();
    });

    it("keeps no reference to what create and update were given, and hands out copies", async () => {
      const { store } = await make(manualClock());
      const id = freshId();
      const given = {
        ...record(),
        clientInfo: { name: "c", version: "1" },
        resourceSubscriptions: ["file:///a"],
      };
      await store.create(id, given, idle);
      given.clientInfo.name = "changed";
      given.resourceSubscriptions.push("file:///b");
      const subscriptions = ["file:///x"];
      await store.update(id, { subscribed: subscriptions, unsubscribed: ["file:///a"] }, idle);
      subscriptions.push("file:///y");
      const first = (await store.get(id, idle)) as unknown as {
        clientInfo: { name: string };
        resourceSubscriptions: string[];
      };
      expect(first.clientInfo.name).toBe("c");
      expect(first.resourceSubscriptions).toEqual(["file:///x"]);
      first.clientInfo.name = "mine";
      first.resourceSubscriptions.push("file:///z");
      await expect(store.get(id, idle)).resolves.toMatchObject({
        clientInfo: { name: "c" },
        resourceSubscriptions: ["file:///x"],
      });
    });

    it("replaces a session created again under the same id", async () => {
      const { store } = await make(manualClock());
      const id = freshId();
      await store.create(id, record({ logLevel: "debug", initialized: true }), idle);
      const again = record({ protocolVersion: "2025-06-18" });
      await store.create(id, again, idle);
      await expect(store.get(id, idle)).resolves.toEqual(again);
    });

    it("applies update's changes, keeps the other facts, and clears a fact updated to undefined", async () => {
      const { store } = await make(manualClock());
      const id = freshId();
      const created = record({ standaloneCursor: "0_3" });
      await store.create(id, created, idle);
      const changes = { initialized: true, logLevel: "warning" } as const;
      await expect(store.update(id, { ...changes, subscribed: ["file:///a"] }, idle)).resolves.toBe(true);
      await expect(store.get(id, idle)).resolves.toEqual({
        ...created,
        ...changes,
        resourceSubscriptions: ["file:///a"],
      });
      await expect(store.update(id, { standaloneCursor: undefined }, idle)).resolves.toBe(true);
      const cleared = await store.get(id, idle);
      expect(cleared?.standaloneCursor).toBeUndefined();
      expect(cleared).toMatchObject({ initialized: true, logLevel: "warning" });
    });

    it("keeps concurrent updates of different facts, the last of two of the same fact, and every concurrent subscription", async () => {
      const { store } = await make(manualClock());
      const id = freshId();
      await store.create(id, { ...record(), resourceSubscriptions: ["file:///kept", "file:///gone"] }, idle);
      await Promise.all([
        store.update(id, { logLevel: "error" }, idle),
        store.update(id, { standaloneCursor: "0_1" }, idle),
        store.update(id, { standaloneCursor: "0_9" }, idle),
        store.update(id, { subscribed: ["file:///first"] }, idle),
        store.update(id, { subscribed: ["file:///second"], unsubscribed: ["file:///gone"] }, idle),
      ]);
      const stored = await store.get(id, idle);
      expect(stored).toMatchObject({ logLevel: "error", standaloneCursor: "0_9" });
      expect([...(stored?.resourceSubscriptions ?? [])].sort()).toEqual([
        "file:///first",
        "file:///kept",
        "file:///second",
      ]);
    });

    it("lets another instance sharing the store read a write once it resolved", async (context) => {
      const { store, peer } = await make(manualClock());
      if (peer === undefined) context.skip();
      const id = freshId();
      await store.create(id, record(), idle);
      await expect(peer?.get(id, idle)).resolves.toMatchObject({ initialized: false });
      await store.update(id, { initialized: true }, idle);
      await expect(peer?.get(id, idle)).resolves.toMatchObject({ initialized: true });
      await expect(peer?.delete(id)).resolves.toBe(true);
      await expect(store.get(id, idle)).resolves.toBeUndefined();
    });

    it("resolves update and touch false, and stores nothing, for a session that never existed", async () => {
      const { store } = await make(manualClock());
      const id = freshId();
      await expect(store.update(id, { initialized: true }, idle)).resolves.toBe(false);
      await expect(store.touch(id, idle)).resolves.toBe(false);
      await expect(store.get(id, idle)).resolves.toBeUndefined();
    });

    it("ends a session on delete, true once and false after, and never resurrects it", async () => {
      const { store } = await make(manualClock());
      const id = freshId();
      await store.create(id, record(), idle);
      await expect(store.delete(id)).resolves.toBe(true);
      await expect(store.delete(id)).resolves.toBe(false);
      await expect(store.update(id, { initialized: true }, idle)).resolves.toBe(false);
      await expect(store.touch(id, idle)).resolves.toBe(false);
      await expect(store.get(id, idle)).resolves.toBeUndefined();
      await expect(store.delete(freshId())).resolves.toBe(false);
    });

    it("forgets a session idleTimeoutMs after its creation, with no further call", async () => {
      const clock = manualClock();
      const { store, advance } = await make(clock);
      const id = freshId();
      await store.create(id, record(), idle);
      await advance(idle);
      await expect(store.get(id, idle)).resolves.toBeUndefined();
    });

    it("never resurrects an expired session: update and touch resolve false", async () => {
      const clock = manualClock();
      const { store, advance } = await make(clock);
      const id = freshId();
      await store.create(id, record(), idle);
      await advance(idle);
      await expect(store.touch(id, idle)).resolves.toBe(false);
      await expect(store.update(id, { initialized: true }, idle)).resolves.toBe(false);
      await expect(store.get(id, idle)).resolves.toBeUndefined();
      await expect(store.delete(id)).resolves.toBe(false);
    });

    for (const [name, restart] of [
      ["get", (store: SessionStore, id: string) => store.get(id, idle).then((found) => found !== undefined)],
      ["update", (store: SessionStore, id: string) => store.update(id, { logLevel: "info" }, idle)],
      ["touch", (store: SessionStore, id: string) => store.touch(id, idle)],
    ] as const) {
      it(`restarts the idle clock on ${name}`, async () => {
        const clock = manualClock();
        const { store, advance } = await make(clock);
        const id = freshId();
        await store.create(id, record(), idle);
        await advance(alive);
        await expect(restart(store, id)).resolves.toBe(true);
        await advance(alive);
        // Past the idle timeout since creation, within it since the restart.
        await expect(store.touch(id, idle)).resolves.toBe(true);
        await advance(idle);
        await expect(store.get(id, idle)).resolves.toBeUndefined();
      });
    }
  });
}
