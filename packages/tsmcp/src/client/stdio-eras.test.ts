/**
 * `Client.connect` to a stdio command in both eras, against a tsmcp `MCPServer` with resolver tools
 * run as a child process: the probe and the handshake happen on the one child the client spawned,
 * and the same `elicitationCallback` answers the tool's question whether it arrives in an
 * `InputRequiredResult` (2026-07-28) or as the server's `elicitation/create` (2025-11-25).
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { ServerProcessExitedError } from "../transport/stdio/client.js";
import type { InputRequestContext } from "./callbacks.js";
import { Client } from "./client.js";

const RESOLVER_SERVER = fileURLToPath(
  new URL("../transport/stdio/fixtures/resolver-server.ts", import.meta.url),
);
const HANDSHAKE_ONLY_SERVER = fileURLToPath(new URL("./fixtures/handshake-only-server.mjs", import.meta.url));
const COMMAND = { command: process.execPath, args: ["--import", "tsx", RESOLVER_SERVER] };

function textOf(result: { content: unknown[] }): string {
  return (result.content as { text: string }[]).map((part) => part.text).join("");
}

describe("Client.connect to a stdio command", () => {
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  function callback(eras: string[]) {
    return (_params: unknown, context: InputRequestContext) => {
      eras.push(context.era);
      return { action: "accept" as const, content: { region: "eu-west-1" } };
    };
  }

  it("auto mode adopts 2026-07-28 and answers the tool's question in the loop", async () => {
    const eras: string[] = [];
    const client = await Client.connect(COMMAND, { elicitationCallback: callback(eras) });
    clients.push(client);
    expect(client.protocolVersion).toBe("2026-07-28");
    expect(textOf(await client.callTool("provision", { name: "orders" }))).toBe(
      "Provisioned orders in eu-west-1",
    );
    expect(eras).toEqual(["modern"]);
  });

  it("legacy mode handshakes and answers the same question over the back-channel", async () => {
    const eras: string[] = [];
    const client = await Client.connect(COMMAND, {
      protocolVersion: "legacy",
      elicitationCallback: callback(eras),
    });
    clients.push(client);
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.serverInfo).toMatchObject({ name: "stdio-resolvers" });
    expect(textOf(await client.callTool("provision", { name: "orders" }))).toBe(
      "Provisioned orders in eu-west-1",
    );
    expect(eras).toEqual(["legacy"]);
    const progress: number[] = [];
    await client.callTool("count", { steps: 2 }, { onProgress: (update) => progress.push(update.progress) });
    expect(progress).toEqual([1, 2]);
  });

  it("legacy mode initializes the restarted process after the server exits, and its back-channel works", async () => {
    const eras: string[] = [];
    const client = await Client.connect(COMMAND, {
      protocolVersion: "legacy",
      elicitationCallback: callback(eras),
    });
    clients.push(client);
    const firstPid = textOf(await client.callTool("pid"));
    await expect(client.callTool("exit")).rejects.toThrow(ServerProcessExitedError);
    // The new process knows of no session: the call fails SessionExpiredError underneath, the
    // client initializes it (declaring elicitation again) and retries.
    expect(textOf(await client.callTool("provision", { name: "orders" }))).toBe(
      "Provisioned orders in eu-west-1",
    );
    expect(eras).toEqual(["legacy"]);
    expect(textOf(await client.callTool("pid"))).not.toBe(firstPid);
    expect(client.protocolVersion).toBe("2025-11-25");
  });

  it("auto mode falls back to initialize on the same child process when the probe is refused", async () => {
    const client = await Client.connect({ command: process.execPath, args: [HANDSHAKE_ONLY_SERVER] });
    clients.push(client);
    expect(client.protocolVersion).toBe("2025-06-18");
    expect(client.era).toBe("legacy");
    expect(textOf(await client.callTool("history"))).toBe(
      "server/discover,initialize,notifications/initialized,tools/call",
    );
  });
});
