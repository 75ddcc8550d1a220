/**
 * The once-only example: a three-round checkout creates one order and charges the card once, in
 * each era, over Streamable HTTP on 127.0.0.1 (the rounds counted on the server).
 */
import { serve } from "tsmcp/node";
import { describe, expect, it, onTestFinished } from "vitest";
import { checkout, createCheckoutServer, type Ledger } from "./once-only.js";

async function served(ledger: Ledger, legs: string[][]) {
  const mcp = createCheckoutServer(ledger);
  mcp.use(async (request, next) => {
    if (request.method === "tools/call") {
      legs.push(Object.keys((request.params as { inputResponses?: object }).inputResponses ?? {}));
    }
    return next(request);
  });
  const handle = await serve(mcp, { host: "127.0.0.1", port: 0 });
  onTestFinished(() => handle.close());
  return handle.url;
}

describe("the once-only example", () => {
  it("charges once after a three-round call at 2026-07-28", async () => {
    const ledger: Ledger = { orders: 0, charges: 0 };
    const legs: string[][] = [];
    const text = await checkout(await served(ledger, legs), "2026-07-28");
    expect(text).toBe("Order order-1: M hoodie, charged to visa-4242 (receipt-1)");
    expect(legs).toEqual([[], ["size"], ["card"], ["confirm"]]);
    expect(ledger).toEqual({ orders: 1, charges: 1 });
  });

  it("charges once on a 2025-11-25 session, the questions asked over the back-channel", async () => {
    const ledger: Ledger = { orders: 0, charges: 0 };
    const legs: string[][] = [];
    const text = await checkout(await served(ledger, legs), "legacy");
    expect(text).toBe("Order order-1: M hoodie, charged to visa-4242 (receipt-1)");
    expect(legs).toEqual([[]]);
    expect(ledger).toEqual({ orders: 1, charges: 1 });
  });
});
