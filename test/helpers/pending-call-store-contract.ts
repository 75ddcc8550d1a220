/**
 * The contract every `PendingCallStore` keeps, as one suite to run against each implementation:
 * in memory and on disk here, Redis in its own package. Deadlines are set in the real future and
 * the store is told a later `nowMs` to see them pass, so an engine that expires keys on its own
 * clock (Redis) runs the same cases.
 *
 * ```ts
 * pendingCallStoreContract("MemoryPendingCallStore", () => new MemoryPendingCallStore());
 * ```
 */
import { describe, expect, it } from "vitest";
import {
  newTicket,
  type ParkedCall,
  type PendingCallStore,
} from "../../packages/tsmcp/src/state/pending-calls.js";

/** A parked call parked now, waiting `ttlMs`. */
export function parkedCall(overrides: Partial<ParkedCall> = {}, ttlMs = 60_000): ParkedCall {
  const now = Date.now();
  return {
    ticket: newTicket(),
    method: "tools/call",
    params: { name: "provision", arguments: { name: "orders" } },
    inputRequests: {
      region: {
        method: "elicitation/create",
        params: {
          mode: "form",
          message: "Which region?",
          requestedSchema: {
            type: "object",
            properties: { region: { type: "string" } },
            required: ["region"],
          },
        },
      },
    },
    requestState: "sealed.token.\u00e9\u{1f600}",
    round: 1,
    protocolVersion: "2026-07-28",
    parkedAtMs: now,
    deadlineMs: now + ttlMs,
    target: "http://127.0.0.1:3000/mcp",
    meta: { note: "from the contract" },
    ...overrides,
  };
}

/** Runs the contract against stores made by `make` (a fresh, empty store each time). */
export function pendingCallStoreContract(
  name: string,
  make: () => PendingCallStore | Promise<PendingCallStore>,
) {
  describe(`${name} keeps the PendingCallStore contract`, () => {
    it("gives back what was put, byte for byte, and lists it until it is claimed", async () => {
      const store = await make();
      const call = parkedCall();
      await store.put(call);
      expect(await store.get(call.ticket)).toEqual(call);
      expect((await store.list(Date.now())).map((c) => c.ticket)).toContain(call.ticket);
      const claimed = await store.claim(call.ticket, Date.now());
      expect(claimed).toEqual({ status: "claimed", call });
      expect(await store.get(call.ticket)).toBeUndefined();
      expect((await store.list(Date.now())).map((c) => c.ticket)).not.toContain(call.ticket);
    });

    it("claims a ticket once: a second claim says it was resumed, an unknown ticket says unknown", async () => {
      const store = await make();
      const call = parkedCall();
      await store.put(call);
      expect((await store.claim(call.ticket, Date.now())).status).toBe("claimed");
      const again = await store.claim(call.ticket, Date.now());
      expect(again.status).toBe("resumed");
      expect((await store.claim(newTicket(), Date.now())).status).toBe("unknown");
    });

    it("lets exactly one of many concurrent claims win", async () => {
      const store = await make();
      const call = parkedCall();
      await store.put(call);
      const results = await Promise.all(
        Array.from({ length: 8 }, () => store.claim(call.ticket, Date.now())),
      );
      expect(results.filter((result) => result.status === "claimed")).toHaveLength(1);
      expect(results.filter((result) => result.status === "resumed")).toHaveLength(7);
    });

    it("refuses a call past its deadline as expired, removes it, and leaves it out of the list", async () => {
      const store = await make();
      const call = parkedCall();
      const listed = parkedCall();
      await store.put(call);
      await store.put(listed);
      const late = await store.claim(call.ticket, call.deadlineMs + 1);
      expect(late).toEqual({ status: "expired", call });
      expect((await store.claim(call.ticket, Date.now())).status).not.toBe("claimed");
      expect((await store.list(listed.deadlineMs + 1)).map((c) => c.ticket)).not.toContain(listed.ticket);
    });

    it("deletes an unclaimed call", async () => {
      const store = await make();
      const call = parkedCall();
      await store.put(call);
      expect(await store.delete(call.ticket)).toBe(true);
      expect(await store.delete(call.ticket)).toBe(false);
      expect((await store.claim(call.ticket, Date.now())).status).toBe("unknown");
    });

    it("lists the oldest first", async () => {
      const store = await make();
      const older = parkedCall({ parkedAtMs: Date.now() - 2000 });
      const newer = parkedCall({ parkedAtMs: Date.now() - 1000 });
      await store.put(newer);
      await store.put(older);
      const listed = (await store.list(Date.now())).map((c) => c.ticket);
      expect(listed.indexOf(older.ticket)).toBeLessThan(listed.indexOf(newer.ticket));
    });
  });
}
