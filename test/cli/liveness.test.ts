/**
 * That long work is alive: on a pseudo-terminal a request that sends no progress shows a spinner
 * naming it with the time it has waited, the progress bar takes its place when progress comes,
 * and between multi-round-trip legs it names the round answered; with --quiet, or without a
 * terminal, nothing of it is written.
 */
import { elicit, MCPServer, RequestStateSecurity } from "tsmcp/server";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { onTerminal } from "./pty.js";
import { httpExample, tsmcp } from "./run-cli.js";

/** A gate a tool waits at until the test opens it. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/** `slow` waits at `first`; `steps` reports progress at `first`, finishes at `second`; `confirm` asks, then waits. */
function slowServer(first: Promise<void>, second: Promise<void>) {
  const mcp = new MCPServer("slow", {
    requestStateSecurity: new RequestStateSecurity({ keys: [new Uint8Array(32).fill(5)] }),
  });
  mcp.tool("slow", {}, async () => {
    await first;
    return "slow done";
  });
  mcp.tool("steps", {}, async (_args, ctx) => {
    await first;
    ctx.sendProgress({ progress: 1, total: 2, message: "halfway" });
    await second;
    return "steps done";
  });
  mcp.tool("confirm", {}, async (_args, ctx) => {
    const { ok } = await ctx.ask("go", elicit("Go?", z.object({ ok: z.boolean() })));
    await first;
    return `confirmed ${ok}`;
  });
  mcp.tool("nap", {}, async () => {
    // Long enough for a spinner to have shown, were one to show.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    return "nap done";
  });
  return mcp;
}

describe("liveness at a terminal", () => {
  it("spins with the elapsed seconds while a call sends no progress", async () => {
    const { open, opened } = gate();
    const term = onTerminal(["call", await httpExample(slowServer(opened, opened)), "slow"]);
    await term.waitFor(/⠙ tools\/call slow · \ds/);
    await term.waitFor("tools/call slow · 1s");
    open();
    await term.waitFor("slow done");
    expect(await term.exited).toBe(0);
  });

  it("gives way to the progress bar when progress comes", async () => {
    const first = gate();
    const second = gate();
    const term = onTerminal(["call", await httpExample(slowServer(first.opened, second.opened)), "steps"]);
    await term.waitFor("tools/call steps · 0s");
    first.open();
    await term.waitFor("1/2 halfway");
    second.open();
    await term.waitFor("steps done");
    expect(await term.exited).toBe(0);
  });

  it("names the round answered while the next leg is outstanding", async () => {
    const { open, opened } = gate();
    const term = onTerminal(["call", await httpExample(slowServer(opened, opened)), "confirm"]);
    await term.waitFor("Yes / ● No");
    term.type("y");
    await term.waitFor("tools/call confirm · round 1 answered (1 question) · 0s");
    open();
    await term.waitFor("confirmed true");
    expect(await term.exited).toBe(0);
  });

  it("shows nothing of it with --quiet", async () => {
    const term = onTerminal([
      "--quiet",
      "call",
      await httpExample(slowServer(Promise.resolve(), Promise.resolve())),
      "nap",
    ]);
    await term.waitFor("nap done");
    expect(await term.exited).toBe(0);
    expect(term.screen()).not.toContain("tools/call nap");
  });
});

describe("liveness without a terminal", () => {
  it("writes no spinner to a stderr that is a pipe", async () => {
    const run = await tsmcp([
      "call",
      await httpExample(slowServer(Promise.resolve(), Promise.resolve())),
      "nap",
    ]);
    expect(run).toMatchObject({ code: 0, stdout: "nap done\n", stderr: "" });
  });
});
