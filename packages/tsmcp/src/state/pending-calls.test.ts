import { describe, expect, it } from "vitest";
import { pendingCallStoreContract } from "../../../../test/helpers/pending-call-store-contract.js";
import {
  checkTicket,
  DEFAULT_PARK_TTL_MS,
  MemoryPendingCallStore,
  newTicket,
  TICKET_PATTERN,
} from "./pending-calls.js";

pendingCallStoreContract("MemoryPendingCallStore", () => new MemoryPendingCallStore());

describe("tickets", () => {
  it("are 22 URL-safe characters, different each time", () => {
    const tickets = new Set(Array.from({ length: 100 }, () => newTicket()));
    expect(tickets.size).toBe(100);
    for (const ticket of tickets) expect(ticket).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it("refuses anything that is not a ticket before it becomes a name", () => {
    expect(() => checkTicket("../../etc/passwd")).toThrow(TypeError);
    expect(() => checkTicket("short")).toThrow(TypeError);
    expect(TICKET_PATTERN.test(newTicket())).toBe(true);
  });

  it("park for 24 hours by default", () => {
    expect(DEFAULT_PARK_TTL_MS).toBe(86_400_000);
  });
});
