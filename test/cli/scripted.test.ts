/**
 * The `tsmcp` command without a terminal, against the examples over stdio (a child process) and
 * Streamable HTTP (127.0.0.1): every command, scripted answers, and the exit codes (0 done, 1 a
 * tool or protocol error, 2 a usage mistake or a question left unanswered).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createDeployServer } from "../../examples/deploy.js";
import { createProvisioningServer } from "../../examples/mcpserver-provisioning.js";
import { createProvisioningServer as createLowLevelServer } from "../../examples/provisioning.js";
import { httpExample, stdioExample, tsmcp } from "./run-cli.js";

const REGION = 'region={"region":"eu-west-1"}';

describe.each([
  { transport: "stdio", target: async () => stdioExample("mcpserver-provisioning") },
  { transport: "HTTP", target: () => httpExample(createProvisioningServer()) },
])("tsmcp against the provisioning example over $transport", ({ target }) => {
  it("calls a tool, answers its question from --answer, prints the result and exits 0", async () => {
    const run = await tsmcp(["call", await target(), "provision", "name=orders", "--answer", REGION, "-v"]);
    expect(run).toMatchObject({ code: 0, stdout: "Provisioned orders in eu-west-1\n" });
    expect(run.stderr).toContain("round 1 · region: Which region should the database live in?");
  });

  it("exits 2 naming the unanswered key and its schema when nothing answers and there is no terminal", async () => {
    const run = await tsmcp(["call", await target(), "provision", "name=orders"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain('no answer for input request "region"');
    expect(run.stderr).toContain('"requestedSchema"');
    expect(run.stderr).toContain('"ap-south-1"');
  });

  it("declines with --decline and prints what the tool says then", async () => {
    const run = await tsmcp(["call", await target(), "provision", "name=orders", "--decline", "region"]);
    expect(run).toMatchObject({ code: 0, stdout: "Not provisioned: no region was chosen\n" });
  });

  it("puts only the JSON result on stdout with --json", async () => {
    const run = await tsmcp([
      "--json",
      "call",
      await target(),
      "provision",
      "name=orders",
      "--answer",
      REGION,
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      content: [{ type: "text", text: "Provisioned orders in eu-west-1" }],
    });
  });

  it("lists tools, prompts, resources and resource templates", async () => {
    const url = await target();
    const [tools, prompts, resources, templates] = await Promise.all(
      ["tools", "prompts", "resources", "templates"].map((command) => tsmcp([command, url])),
    );
    expect(tools).toMatchObject({ code: 0 });
    expect(tools?.stdout).toMatch(
      /^provision\n {2}provision\(name\*: string \(non-empty\)\)\n {2}Provision a database/,
    );
    expect(prompts?.stdout).toMatch(/^briefing\n {2}briefing\(\)\n {2}A status briefing/);
    expect(resources?.stdout).toContain("provisioning://regions — regions\n  application/json\n");
    expect(templates?.stdout).toContain("provisioning://regions/{region} — region\n  text/plain\n");
  });

  it("discovers the server", async () => {
    const run = await tsmcp(["discover", await target()]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("provisioning 1.0.0\nprotocol 2026-07-28 (modern era)\n");
    expect(run.stdout).toContain("instructions: Provisions databases.");
  });

  it("gets a prompt, answering its question", async () => {
    const run = await tsmcp([
      "prompt",
      await target(),
      "briefing",
      "--answer",
      'audience={"audience":"ops"}',
    ]);
    expect(run).toMatchObject({
      code: 0,
      stdout: "A briefing for ops\nuser: Write a short status briefing for ops.\n",
    });
  });

  it("reads a resource, and exits 1 with the code and message for one that does not exist", async () => {
    const url = await target();
    const [found, missing] = await Promise.all([
      tsmcp(["read", url, "provisioning://regions"]),
      tsmcp(["read", url, "provisioning://regions/mars"]),
    ]);
    expect(found).toMatchObject({ code: 0, stdout: '["eu-west-1","us-east-1","ap-south-1"]\n' });
    expect(missing).toMatchObject({ code: 1, stdout: "" });
    expect(missing?.stderr).toContain("error -32602: Resource not found");
  });

  it("answers a 2025-era session, where the key is the server's request id, by the form's fields", async () => {
    const run = await tsmcp([
      "--protocol",
      "legacy",
      "prompt",
      await target(),
      "briefing",
      "--answer",
      'audience={"audience":"ops"}',
    ]);
    expect(run).toMatchObject({
      code: 0,
      stdout: "A briefing for ops\nuser: Write a short status briefing for ops.\n",
    });
  });
});

describe("tsmcp exit codes and scripted answers", () => {
  it("runs the README's command: the example through npm over stdio", async () => {
    const run = await tsmcp([
      "call",
      "npm run -s example -- mcpserver-provisioning --stdio",
      "provision",
      "name=orders",
      "--answer",
      REGION,
    ]);
    expect(run).toMatchObject({ code: 0, stdout: "Provisioned orders in eu-west-1\n" });
  });

  it("exits 1 for a result with isError, printing its content", async () => {
    // An empty name is given (a missing one is refused before the call): the server refuses it.
    const run = await tsmcp(["call", await httpExample(createLowLevelServer()), "provision", "name="]);
    expect(run).toMatchObject({ code: 1, stdout: "Argument 'name' must be a non-empty string\n" });
  });

  it("exits 1 with the code and message of a protocol error", async () => {
    const run = await tsmcp(["call", stdioExample("mcpserver-provisioning"), "no-such-tool"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/error -32602: .*no-such-tool/);
  });

  it("takes answers from an --answers file, across the deploy example's two rounds", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "tsmcp-cli-")), "answers.json");
    writeFileSync(
      file,
      JSON.stringify({
        environment: { environment: "production" },
        approval: { approve: true },
        notes: { notes: "Faster checkout." },
      }),
    );
    const url = await httpExample(createDeployServer());
    const run = await tsmcp([
      "call",
      url,
      "deploy",
      "service=billing",
      "version=2.4.0",
      "--answers",
      file,
      "-v",
    ]);
    expect(run).toMatchObject({
      code: 0,
      stdout: "Deployed billing 2.4.0 to production. Notes: Faster checkout.\n",
    });
    expect(run.stderr).toContain("round 2 · approval: Deploy billing 2.4.0 to production?");
  });

  it("keeps a string argument a string when the tool's schema says so, and reads --args", async () => {
    const url = await httpExample(createDeployServer());
    const run = await tsmcp([
      "call",
      url,
      "deploy",
      "version=2",
      "--args",
      '{"service":"billing"}',
      "--answer",
      'environment={"environment":"staging"}',
      "--decline",
      "approval",
      "--answer",
      'notes={"notes":""}',
    ]);
    expect(run).toMatchObject({ code: 0, stdout: "Not deployed: billing 2 was not approved for staging.\n" });
  });

  it("exits 2 for a usage mistake: a malformed --answer, a --header with a stdio target, a missing argument", async () => {
    const target = stdioExample("mcpserver-provisioning");
    const runs = await Promise.all([
      tsmcp(["call", target, "provision", "--answer", "region"]),
      tsmcp(["--header", "x-a:1", "tools", target]),
      tsmcp(["call", target]),
      tsmcp(["tools", "sh -c 'x' | cat"]),
    ]);
    expect(runs.map((run) => run.code)).toEqual([2, 2, 2, 2]);
    expect(runs[0]?.stderr).toContain("--answer must be key=<json object>");
    expect(runs[1]?.stderr).toContain("--header needs an http(s) URL target");
    expect(runs[2]?.stderr).toContain("missing required argument 'tool'");
    expect(runs[3]?.stderr).toContain("shell operator (|)");
  });
});

describe("tsmcp when something goes wrong", () => {
  const PROVISIONING = "npm run -s example -- mcpserver-provisioning --stdio";
  const CHATTY = `${JSON.stringify(process.execPath)} --import tsx test/cli/fixtures/chatty-server.ts`;

  it("exits 2 before sending a scripted answer the question's schema refuses, naming key, value and schema", async () => {
    const run = await tsmcp([
      "call",
      PROVISIONING,
      "provision",
      "name=orders",
      "--answer",
      'region={"region":"mars"}',
    ]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      'the answer to "region" does not fit the question: field region "mars" is not one of',
    );
    expect(run.stderr).toContain('"requestedSchema"');
    expect(run.stderr).not.toContain("InputRequiredRoundsExceededError");
  });

  it("with --json, prints the error as JSON on stdout too: a protocol error, and an unanswered question", async () => {
    const target = stdioExample("mcpserver-provisioning");
    const [protocol, unanswered] = await Promise.all([
      tsmcp(["--json", "call", target, "no-such-tool"]),
      tsmcp(["--json", "call", target, "provision", "name=orders"]),
    ]);
    expect(protocol?.code).toBe(1);
    expect(JSON.parse(protocol?.stdout ?? "")).toMatchObject({
      error: { code: -32602, message: expect.stringContaining("no-such-tool") },
    });
    expect(protocol?.stderr).toMatch(/error -32602: .*no-such-tool/);
    expect(unanswered?.code).toBe(2);
    expect(JSON.parse(unanswered?.stdout ?? "")).toMatchObject({
      error: {
        code: "UnansweredInputError",
        data: { key: "region", asks: { requestedSchema: { properties: { region: { type: "string" } } } } },
      },
    });
  });

  it("says a connect timeout happened on server/discover, not that the server is old", async () => {
    const run = await tsmcp(["--timeout", "1", "tools", stdioExample("mcpserver-provisioning")]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("timed out after 1 ms (server/discover)");
    expect(run.stderr).not.toContain("initialize");
  });

  it("prints the error and a pointer to the help, not the whole help, after a usage mistake", async () => {
    const runs = await Promise.all([tsmcp(["frobnicate"]), tsmcp(["--protocol", "x", "tools", CHATTY])]);
    for (const run of runs) {
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("(see tsmcp --help)");
      expect(run.stderr).not.toContain("Usage:");
    }
    expect(runs[0]?.stderr).toContain("unknown command 'frobnicate'");
  });

  it("says so when a list is empty, and prints an empty list with --json", async () => {
    const [human, json] = await Promise.all([
      tsmcp(["prompts", CHATTY]),
      tsmcp(["--json", "prompts", CHATTY]),
    ]);
    expect(human).toMatchObject({ code: 0, stdout: "(no prompts)\n" });
    expect(JSON.parse(json?.stdout ?? "")).toEqual({ prompts: [] });
  });

  it("says a command that exited without answering is not an MCP server", async () => {
    const run = await tsmcp(["tools", "echo hi"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'the command "echo hi" exited with code 0 without answering: it is not an MCP server',
    );
  });
});
