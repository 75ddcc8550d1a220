/**
 * The MCPServer provisioning example, run through a real client: over Streamable HTTP on
 * 127.0.0.1, and as `npm run example -- mcpserver-provisioning` in a child process (HTTP and stdio).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client, type ElicitationCallback } from "tsmcp/client";
import { serve } from "tsmcp/node";
import { describe, expect, it, onTestFinished } from "vitest";
import { PROCESS_LOCAL_KEY_WARNING, stderrOf, warningOfProcessLocalKey } from "../test/helpers/logs.js";
import { createProvisioningServer } from "./mcpserver-provisioning.js";

const root = fileURLToPath(new URL("..", import.meta.url));

/** An elicitation callback answering each question from `answers` (by key), recording what was asked. */
function answering(answers: Record<string, Record<string, string>>) {
  const asked: string[] = [];
  const callback: ElicitationCallback = (params, context) => {
    asked.push(`${context.key}: ${params.message}`);
    const content = answers[context.key];
    return content === undefined ? { action: "decline" } : { action: "accept", content };
  };
  return { asked, callback };
}

async function overHttp(callback?: ElicitationCallback): Promise<Client> {
  const handle = await warningOfProcessLocalKey(() =>
    serve(createProvisioningServer(), { host: "127.0.0.1", port: 0 }),
  );
  onTestFinished(() => handle.close());
  const client = await Client.connect(
    handle.url,
    // Without a callback the test drives the loop itself, still declaring the forms it answers.
    callback === undefined
      ? { capabilities: { elicitation: { form: {} } } }
      : { elicitationCallback: callback },
  );
  onTestFinished(() => client.close());
  return client;
}

/**
 * Runs `npm run example -- mcpserver-provisioning` (what that script runs) and resolves its URL,
 * the process, how it exits, and (once it has exited) what it wrote to stderr.
 */
function runExampleOverHttp(): Promise<{
  url: URL;
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr: Promise<string>;
}> {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", "examples/run.ts", "mcpserver-provisioning"],
    { cwd: root, env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  onTestFinished(() => {
    child.kill("SIGKILL");
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  let written = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    written += chunk.toString();
  });
  const stderr = new Promise<string>((resolve) => child.once("close", () => resolve(written)));
  return new Promise((resolve, reject) => {
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(stdout);
      if (found) resolve({ url: new URL(found[1] as string), child, exited, stderr });
    });
    child.on("exit", (code) =>
      reject(new Error(`the example exited with ${code} before listening: ${stdout}`)),
    );
  });
}

describe("the MCPServer provisioning example", () => {
  it("provisions in the region the user picks, asking once", async () => {
    const { asked, callback } = answering({ region: { region: "us-east-1" } });
    const client = await overHttp(callback);
    expect(client.serverInfo?.name).toBe("provisioning");
    const result = await client.callTool("provision", { name: "orders" });
    expect(result.content).toEqual([{ type: "text", text: "Provisioned orders in us-east-1" }]);
    expect(asked).toEqual(["region: Which region should the database live in?"]);
  });

  it("writes the briefing for the audience the user names", async () => {
    const { asked, callback } = answering({ audience: { audience: "the board" } });
    const client = await overHttp(callback);
    const result = await client.getPrompt("briefing");
    expect(result.description).toBe("A briefing for the board");
    expect(result.messages).toEqual([
      { role: "user", content: { type: "text", text: "Write a short status briefing for the board." } },
    ]);
    expect(asked).toEqual(["audience: Who is the briefing for?"]);
  });

  it("writes a briefing for the whole team when the user declines, asking once", async () => {
    const { asked, callback } = answering({});
    const client = await overHttp(callback);
    const result = await client.getPrompt("briefing");
    expect(result.description).toBe("A briefing for the whole team");
    expect(asked).toEqual(["audience: Who is the briefing for?"]);
  });

  it("hands out a sealed requestState and refuses its plaintext echoed back, logging why", async () => {
    const client = await overHttp();
    const first = await client.session.callTool(
      "provision",
      { name: "orders" },
      { allowInputRequired: true },
    );
    expect(first.resultType).toBe("input_required");
    const state = (first as { requestState: string }).requestState;
    expect(state).toMatch(/^v1\./);
    expect(state).not.toContain("provision-v1");
    const { lines } = await stderrOf(() =>
      expect(
        client.session.callTool(
          "provision",
          { name: "orders" },
          {
            inputResponses: { region: { action: "accept", content: { region: "eu-west-1" } } },
            requestState: "provision-v1",
          },
        ),
      ).rejects.toMatchObject({ code: -32602, message: "Invalid or expired requestState" }),
    );
    expect(lines).toEqual([
      '[tsmcp] warn requestState rejected on tools/call: malformed {"method":"tools/call","reason":"malformed"}',
    ]);
  });

  it("ends the call without provisioning when the user declines or cancels, asking once", async () => {
    for (const action of ["decline", "cancel"] as const) {
      let asked = 0;
      const client = await overHttp(() => {
        asked += 1;
        return { action };
      });
      const result = await client.callTool("provision", { name: "orders" });
      expect(result.content).toEqual([{ type: "text", text: "Not provisioned: no region was chosen" }]);
      expect(asked).toBe(1);
    }
  });

  it("asks again when the answer is missing or names a region it does not offer", async () => {
    const client = await overHttp();
    for (const answer of [undefined, { action: "accept" as const, content: { region: "mars-1" } }]) {
      const leg = await client.session.callTool(
        "provision",
        { name: "orders" },
        { allowInputRequired: true, ...(answer === undefined ? {} : { inputResponses: { region: answer } }) },
      );
      expect(leg).toMatchObject({
        resultType: "input_required",
        inputRequests: { region: { method: "elicitation/create" } },
      });
    }
  });

  it("refuses an empty database name with a tool error naming the field", async () => {
    const client = await overHttp();
    const result = await client.callTool("provision", { name: "" });
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("name:") });
  });
});

describe("npm run example -- mcpserver-provisioning", () => {
  it("serves Streamable HTTP that a client provisions through, warning of its process-local key", async () => {
    const { url, child, stderr } = await runExampleOverHttp();
    expect(url.hostname).toBe("127.0.0.1");
    const { callback } = answering({ region: { region: "ap-south-1" } });
    const client = await Client.connect(url, { elicitationCallback: callback });
    onTestFinished(() => client.close());
    expect((await client.callTool("provision", { name: "billing" })).content).toEqual([
      { type: "text", text: "Provisioned billing in ap-south-1" },
    ]);
    child.kill("SIGTERM");
    expect((await stderr).trim().split("\n")).toEqual([expect.stringMatching(PROCESS_LOCAL_KEY_WARNING)]);
  });

  it("drains and exits cleanly on SIGTERM", async () => {
    const { url, child, exited, stderr } = await runExampleOverHttp();
    const client = await Client.connect(url, { capabilities: { elicitation: { form: {} } } });
    await client.close();
    child.kill("SIGTERM");
    expect(await exited).toEqual({ code: 0, signal: null });
    expect((await stderr).trim().split("\n")).toEqual([expect.stringMatching(PROCESS_LOCAL_KEY_WARNING)]);
  });

  it("serves stdio with --stdio", async () => {
    const { callback } = answering({ region: { region: "eu-west-1" }, audience: { audience: "ops" } });
    const client = await Client.connect(
      {
        command: process.execPath,
        args: ["--import", "tsx", "examples/run.ts", "mcpserver-provisioning", "--stdio"],
        cwd: root,
      },
      { elicitationCallback: callback },
    );
    onTestFinished(() => client.close());
    expect((await client.callTool("provision", { name: "orders" })).content).toEqual([
      { type: "text", text: "Provisioned orders in eu-west-1" },
    ]);
    expect((await client.getPrompt("briefing")).description).toBe("A briefing for ops");
  });
});
