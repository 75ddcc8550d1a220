/**
 * What the `tsmcp` command writes besides its result, without a terminal: progress as one line per
 * update, the server's log messages with their level, the rounds with `-v` and each JSON-RPC
 * message with `-vv`, all on stderr, so that `--json` leaves nothing but the result on stdout.
 */
import { describe, expect, it } from "vitest";
import { createProvisioningServer } from "../../examples/mcpserver-provisioning.js";
import { createChattyServer } from "./fixtures/chatty-server.js";
import { httpExample, stdioExample, tsmcp } from "./run-cli.js";

const CHATTY_STDIO = `${JSON.stringify(process.execPath)} --import tsx test/cli/fixtures/chatty-server.ts`;

describe.each([
  { transport: "stdio", target: async () => CHATTY_STDIO, protocol: "auto" },
  { transport: "HTTP", target: () => httpExample(createChattyServer()), protocol: "auto" },
  {
    transport: "HTTP, 2025-era session",
    target: () => httpExample(createChattyServer()),
    protocol: "legacy",
  },
])("tsmcp progress and logs over $transport", ({ target, protocol }) => {
  it("writes a line per progress update and each log message with its level on stderr, the result alone on stdout", async () => {
    const run = await tsmcp(["--json", "--protocol", protocol, "call", await target(), "work"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ content: [{ type: "text", text: "worked" }] });
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines).toEqual([
      "[info worker] starting",
      "progress 1/3 step 1",
      "progress 2/3 step 2",
      "progress 3/3 step 3",
      '[warning] {"left":0}',
    ]);
  });

  it("adds debug log messages with -v", async () => {
    const run = await tsmcp(["-v", "--protocol", protocol, "call", await target(), "work"]);
    expect(run).toMatchObject({ code: 0, stdout: "worked\n" });
    expect(run.stderr).toContain("[debug worker] warming up\n[info worker] starting\n");
  });
});

describe.each([
  { transport: "stdio", target: async () => stdioExample("mcpserver-provisioning") },
  { transport: "HTTP", target: () => httpExample(createProvisioningServer()) },
])("tsmcp -vv over $transport", ({ target }) => {
  const REGION = 'region={"region":"eu-west-1"}';

  it("writes each JSON-RPC message sent (->) and received (<-) on one line of stderr", async () => {
    const run = await tsmcp([
      "-vv",
      "--json",
      "call",
      await target(),
      "provision",
      "name=orders",
      "--answer",
      REGION,
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ content: [{ text: "Provisioned orders in eu-west-1" }] });
    const wire = run.stderr
      .split("\n")
      .filter((line) => line.startsWith("-> ") || line.startsWith("<- "))
      .map((line) => [line.slice(0, 2), JSON.parse(line.slice(3))] as const);
    const calls = wire.filter(([, message]) => message.method === "tools/call");
    expect(wire[0]).toMatchObject(["->", { jsonrpc: "2.0", id: 1, method: "server/discover" }]);
    expect(wire[1]).toMatchObject([
      "<-",
      { jsonrpc: "2.0", id: 1, result: { supportedVersions: ["2026-07-28"] } },
    ]);
    // Both legs of the round trip: the second carries the answer under its key.
    expect(calls).toHaveLength(2);
    expect(calls[1]?.[1]).toMatchObject({
      params: { inputResponses: { region: { action: "accept", content: { region: "eu-west-1" } } } },
    });
    expect(wire.at(-1)).toMatchObject(["<-", { result: { resultType: "complete" } }]);
    // The per-round summary of -v is there too.
    expect(run.stderr).toContain("round 1 · region: Which region should the database live in?");
  });

  it("shows rounds but no wire messages with a single -v", async () => {
    const run = await tsmcp(["-v", "call", await target(), "provision", "name=orders", "--answer", REGION]);
    expect(run).toMatchObject({ code: 0, stdout: "Provisioned orders in eu-west-1\n" });
    expect(run.stderr).toContain("round 1 · region:");
    expect(run.stderr).not.toMatch(/^(->|<-) /m);
  });
});
