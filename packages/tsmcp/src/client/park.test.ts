/**
 * Parking a call and resuming it with another client connected to the same server over HTTP: the
 * ticket resumes once, the requestState comes back byte for byte, a deadline refuses, and a
 * handshake-era connection cannot park.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { testRequestStateSecurity } from "../../../../test/helpers/request-state.js";
import { connect, recordLegs, textOf } from "../server/mcp/resolvers-test-fixtures.js";
import { MCPServer } from "../server/mcp/server.js";
import { elicit } from "../server/resolve/elicit.js";
import { MemoryPendingCallStore } from "../state/pending-calls.js";
import { CallParkedError, InputUnavailableError, ParkedCallRefusedError } from "./park.js";

function provisioning() {
  const mcp = new MCPServer("provisioning", { requestStateSecurity: testRequestStateSecurity() });
  const legs = recordLegs(mcp);
  let provisioned = 0;
  mcp.tool("provision", { inputSchema: z.object({ name: z.string() }) }, async ({ name }, ctx) => {
    const { region } = await ctx.ask("region", elicit("Which region?", z.object({ region: z.string() })));
    await ctx.once("provision", () => {
      provisioned += 1;
      return true;
    });
    return `Provisioned ${name} in ${region}`;
  });
  return { mcp, legs, provisioned: () => provisioned };
}

const away = () => {
  throw new InputUnavailableError("nobody is here");
};

describe("client.park and client.resume", () => {
  it("parks a call nobody can answer and resumes it once from another client", async () => {
    const { mcp, legs, provisioned } = provisioning();
    const store = new MemoryPendingCallStore();
    const first = await connect(mcp, "http", { elicitationCallback: away });
    const parked = await first
      .callTool("provision", { name: "orders" }, { park: { store, target: "here" } })
      .catch((e) => e);
    expect(parked).toBeInstanceOf(CallParkedError);
    const { call } = parked as CallParkedError;
    expect(call).toMatchObject({
      method: "tools/call",
      params: { name: "provision", arguments: { name: "orders" } },
      round: 1,
      target: "here",
    });
    expect(Object.keys(call.inputRequests)).toEqual(["region"]);
    expect(typeof call.requestState).toBe("string");

    const second = await connect(mcp, "http");
    const resumed = await second.resume(store, call.ticket, {
      inputResponses: { region: { action: "accept", content: { region: "eu-west-1" } } },
    });
    expect(resumed.method).toBe("tools/call");
    expect(textOf(resumed.result as never)).toBe("Provisioned orders in eu-west-1");
    // The sealed state opened on the server: it came back byte for byte.
    expect(legs[1]).toMatchObject({ answered: ["region"], echoedState: true });
    expect(provisioned()).toBe(1);

    const again = await second.resume(store, call.ticket).catch((e) => e);
    expect(again).toBeInstanceOf(ParkedCallRefusedError);
    expect(again).toMatchObject({ reason: "resumed", ticket: call.ticket });
    expect((again as Error).message).toBe(
      `Cannot resume parked call ${call.ticket}: it was already resumed; a parked call resumes once`,
    );
  });

  it("answers what was not given with the resuming client's callbacks", async () => {
    const { mcp } = provisioning();
    const store = new MemoryPendingCallStore();
    const first = await connect(mcp, "memory", { elicitationCallback: away });
    const { ticket } = (await first
      .callTool("provision", { name: "db" }, { park: { store } })
      .catch((e) => e)) as CallParkedError;
    const second = await connect(mcp, "memory", {
      elicitationCallback: () => ({ action: "accept", content: { region: "us-east-1" } }),
    });
    const resumed = await second.resume(store, ticket);
    expect(textOf(resumed.result as never)).toBe("Provisioned db in us-east-1");
  });

  it("refuses an unknown ticket and one past its deadline, before sending anything", async () => {
    const { mcp, legs } = provisioning();
    const store = new MemoryPendingCallStore();
    let nowMs = Date.UTC(2026, 11, 2);
    const clock = { now: () => nowMs, sleep: async () => {} };
    const first = await connect(mcp, "memory", { elicitationCallback: away, clock });
    const { ticket } = (await first
      .callTool("provision", { name: "db" }, { park: { store, ttlMs: 1000 } })
      .catch((e) => e)) as CallParkedError;
    const before = legs.length;
    nowMs += 1000;
    const expired = await first.resume(store, ticket).catch((e) => e);
    expect(expired).toMatchObject({ reason: "expired" });
    const unknown = await first.resume(store, "AAAAAAAAAAAAAAAAAAAAAA").catch((e) => e);
    expect(unknown).toMatchObject({ reason: "unknown" });
    expect(legs.length).toBe(before);
  });

  it("parks by hand from a round driven with the session", async () => {
    const { mcp } = provisioning();
    const store = new MemoryPendingCallStore();
    const client = await connect(mcp, "memory", { elicitationCallback: away });
    const round = await client.session.callTool("provision", { name: "x" }, { allowInputRequired: true });
    if (round.resultType !== "input_required") throw new Error("expected input_required");
    const call = await client.park(
      { method: "tools/call", params: { name: "provision", arguments: { name: "x" } }, result: round },
      { store },
    );
    expect(await store.get(call.ticket)).toEqual(call);
  });

  it("cannot park on a handshake-era connection", async () => {
    const { mcp } = provisioning();
    const client = await connect(mcp, "memory", { protocolVersion: "legacy", elicitationCallback: away });
    const refused = await client
      .callTool("provision", { name: "x" }, { park: { store: new MemoryPendingCallStore() } })
      .catch((e) => e);
    expect(refused).toMatchObject({ name: "ParkedCallRefusedError", reason: "legacy" });
  });
});
