/**
 * `StdioClientTransport` after its server process exits: at 2026-07-28 the next request starts a
 * new process; on a 2025-era session (`legacy`) only `initialize` does, and anything else rejects
 * with `SessionExpiredError` so that the session initializes the new process first.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { SessionExpiredError } from "../transport.js";
import { StdioClientTransport } from "./client.js";
import { SCRIPTED_SERVER } from "./fixtures/harness.js";

const script = (id: number) => ({ jsonrpc: "2.0" as const, id, method: "script", params: { lines: [] } });
const COMPLETE = { resultType: "complete" };

/** A transport to the scripted server whose first process has been started and then killed. */
async function afterExit(
  era: "modern" | "legacy",
): Promise<{ transport: StdioClientTransport; pid: number }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [SCRIPTED_SERVER] });
  onTestFinished(() => transport.close());
  await transport.request(script(1));
  if (era === "legacy") transport.setProtocolEra({ kind: "legacy", protocolVersion: "2025-11-25" });
  const pid = transport.pid as number;
  const exited = new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      if (transport.pid === undefined) {
        clearInterval(poll);
        resolve();
      }
    }, 5);
  });
  process.kill(pid, "SIGTERM");
  await exited;
  return { transport, pid };
}

describe("StdioClientTransport after the server process exits", () => {
  it("starts a new process on the next request at 2026-07-28", async () => {
    const { transport, pid } = await afterExit("modern");
    expect(await transport.request(script(2))).toMatchObject({ id: 2, result: COMPLETE });
    expect(transport.pid).not.toBe(pid);
  });

  it("at legacy rejects requests and notifications with SessionExpiredError until initialize restarts it", async () => {
    const { transport, pid } = await afterExit("legacy");
    await expect(transport.request(script(2))).rejects.toThrow(SessionExpiredError);
    await expect(
      transport.notify({ jsonrpc: "2.0", method: "notifications/roots/list_changed" }),
    ).rejects.toThrow(SessionExpiredError);
    expect(transport.pid).toBeUndefined();
    // The scripted server never answers `initialize`; that it was written to a new process is enough.
    const controller = new AbortController();
    const initialize = transport.request(
      { jsonrpc: "2.0", id: 3, method: "initialize", params: {} },
      { signal: controller.signal },
    );
    await transport.start();
    expect(transport.pid).toBeDefined();
    expect(transport.pid).not.toBe(pid);
    controller.abort(new Error("done"));
    await expect(initialize).rejects.toThrow("done");
    expect(await transport.request(script(4))).toMatchObject({ id: 4, result: COMPLETE });
  });
});
