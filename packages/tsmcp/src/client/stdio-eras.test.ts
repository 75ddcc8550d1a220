/**
 * `Client.connect` to a stdio command in both eras, against a tsmcp `MCPServer` with resolver tools
 * run as a child process: the probe and the handshake happen on the one child the client spawned,
 * and the same `elicitationCallback` answers the tool's question whether it arrives in an
 * `InputRequiredResult` (2026-07-28) or as the server's `elicitation/create` (2025-11-25).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { ServerProcessExitedError } from "../transport/stdio/client.js";
import type { InputRequestContext } from "./callbacks.js";
import { Client } from "./client.js";

const RESOLVER_SERVER = fileURLToPath(
  new URL("../transport/stdio/fixtures/resolver-server.ts", import.meta.url),
);
const HANDSHAKE_ONLY_SERVER = fileURLToPath(new URL("./fixtures/handshake-only-server.mjs", import.meta.url));
const COMMAND = { command: process.execPath, args: ["--import", "tsx", RESOLVER_SERVER] };
const HANDSHAKE_ONLY_ARGS = [HANDSHAKE_ONLY_SERVER, "--protocol-version", "2025-11-25"];

/** A fresh file for the handshake-only server's `--journal`, removed after the test. */
function journalFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "tsmcp-journal-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, "journal");
}

/** What the `--journal` file recorded: each message received and the process that received it. */
function journalOf(file: string): { pid: string; method: string }[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const [pid = "", method = ""] = line.split(" ");
      return { pid, method };
    });
}

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

  it("auto mode starts the process again and initializes it when the server exits on the probe", async () => {
    const journal = journalFile();
    const client = await Client.connect({
      command: process.execPath,
      args: [...HANDSHAKE_ONLY_ARGS, "--exit-on", "server/discover", "--journal", journal],
    });
    clients.push(client);
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.era).toBe("legacy");
    // The history is the second process's: it never saw the probe.
    expect(textOf(await client.callTool("history"))).toBe("initialize,notifications/initialized,tools/call");
    const processes = journalOf(journal);
    expect(processes.map(({ method }) => method)).toEqual([
      "server/discover",
      "initialize",
      "notifications/initialized",
      "tools/call",
    ]);
    expect(processes[1]?.pid).not.toBe(processes[0]?.pid);
  });

  it("starts the process again only once: a second exit fails connect with ServerProcessExitedError", async () => {
    const journal = journalFile();
    const connecting = Client.connect({
      command: process.execPath,
      args: [
        ...HANDSHAKE_ONLY_ARGS,
        "--exit-on",
        "server/discover",
        "--exit-on",
        "initialize",
        "--journal",
        journal,
      ],
    });
    await expect(connecting).rejects.toThrow(ServerProcessExitedError);
    await expect(connecting).rejects.toThrow("exited with code 1");
    const processes = journalOf(journal);
    expect(processes.map(({ method }) => method)).toEqual(["server/discover", "initialize"]);
    expect(processes[1]?.pid).not.toBe(processes[0]?.pid);
  });
});
