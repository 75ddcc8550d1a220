/**
 * A checkout tool written await-style: it creates the order, asks three questions one after the
 * other (size, card, confirmation), then charges the card. At 2026-07-28 the handler runs again
 * from the top on every round, so whatever has a side effect goes inside `ctx.once`: the order is
 * created once and the card charged once per call, however many rounds the call takes. On a
 * 2025-11-25 session the same handler asks over the back-channel and runs once.
 *
 * Run it: `npm run example -- once-only` (a scripted client calls it in both eras and prints what
 * the store counted).
 */
import { Client } from "tsmcp/client";
import { serve } from "tsmcp/node";
import { elicit, MCPServer, RequestStateSecurity } from "tsmcp/server";
import type { ElicitResult } from "tsmcp/types";
import * as z from "zod";

/** The side effects the server performed: orders created and cards charged. */
export interface Ledger {
  orders: number;
  charges: number;
}

/** Builds the checkout server over `ledger`, whose counters each side effect increments. */
export function createCheckoutServer(ledger: Ledger): MCPServer {
  const mcp = new MCPServer("checkout", {
    version: "1.0.0",
    requestStateSecurity: new RequestStateSecurity({ keys: [crypto.getRandomValues(new Uint8Array(32))] }),
  });
  mcp.tool(
    "checkout",
    {
      description: "Order an item: asks its size, the card to charge, and a confirmation; charges once.",
      inputSchema: z.object({ item: z.string().min(1) }),
    },
    async ({ item }, ctx) => {
      // Side effects live in ctx.once: recorded on the first round, returned from the record later.
      const order = await ctx.once("create-order", () => {
        ledger.orders += 1;
        return { id: `order-${ledger.orders}`, item };
      });
      const { size } = await ctx.ask(
        "size",
        elicit(`Which size of ${item}?`, z.object({ size: z.enum(["S", "M", "L"]) })),
      );
      const { card } = await ctx.ask("card", elicit("Which card?", z.object({ card: z.string() })));
      const confirmed = await ctx.askOutcome(
        "confirm",
        elicit(`Charge ${card} for a size ${size} ${item}?`, z.object({ ok: z.boolean() })),
      );
      if (confirmed.status !== "accepted" || !confirmed.content.ok) return `Order ${order.id} cancelled`;
      const receipt = await ctx.once("charge", () => {
        ledger.charges += 1;
        return `receipt-${ledger.charges}`;
      });
      return `Order ${order.id}: ${size} ${item}, charged to ${card} (${receipt})`;
    },
  );
  return mcp;
}

/** The answers a scripted user gives, by input key. */
export const ANSWERS: Readonly<Record<string, NonNullable<ElicitResult["content"]>>> = {
  size: { size: "M" },
  card: { card: "visa-4242" },
  confirm: { ok: true },
};

/** Calls the checkout tool over HTTP at `url` in one era, answering from {@link ANSWERS}. */
export async function checkout(url: URL, protocolVersion: "2026-07-28" | "legacy"): Promise<string> {
  const client = await Client.connect(url, {
    protocolVersion,
    elicitationCallback: (_params, { key }) => ({ action: "accept", content: ANSWERS[key] ?? {} }),
  });
  try {
    const result = await client.callTool("checkout", { item: "hoodie" });
    return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  } finally {
    await client.close();
  }
}

/** Serves the checkout server on a loopback port and calls it once in each era. */
export async function main(): Promise<void> {
  const ledger: Ledger = { orders: 0, charges: 0 };
  const handle = await serve(createCheckoutServer(ledger), { host: "127.0.0.1", port: 0 });
  try {
    for (const era of ["2026-07-28", "legacy"] as const) {
      const before = { ...ledger };
      const text = await checkout(handle.url, era);
      console.log(
        `${era}: ${text} — orders +${ledger.orders - before.orders}, charges +${ledger.charges - before.charges}`,
      );
    }
  } finally {
    await handle.close();
  }
}
