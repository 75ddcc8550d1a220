/**
 * The provisioning flow end to end over each transport: the first `tools/call` answers
 * `input_required`, the client answers the elicitation and retries, the call completes.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { ASK_AUDIENCE, createProvisioningServer } from "../../examples/provisioning.js";
import { Client, type ElicitationCallback } from "../../packages/tsmcp/src/client/index.js";
import { serve } from "../../packages/tsmcp/src/node/index.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

function answering(region: string) {
  const asked: string[] = [];
  const callback: ElicitationCallback = (params, context) => {
    asked.push(`${context.key}: ${params.message}`);
    return { action: "accept", content: { region } };
  };
  return { asked, callback };
}

async function provision(client: Client, asked: string[]) {
  try {
    const result = await client.callTool("provision", { name: "orders" });
    expect(asked).toEqual(["region: Which region should the database live in?"]);
    return result.content;
  } finally {
    await client.close();
  }
}

describe("the provisioning flow", () => {
  it("completes in memory", async () => {
    const { asked, callback } = answering("eu-west-1");
    const client = await Client.connect(createProvisioningServer(), { elicitationCallback: callback });
    expect(await provision(client, asked)).toEqual([
      { type: "text", text: "Provisioned orders in eu-west-1" },
    ]);
  });

  it("completes over Streamable HTTP on 127.0.0.1", async () => {
    const server = await serve(createProvisioningServer(), { host: "127.0.0.1", port: 0 });
    try {
      const { asked, callback } = answering("us-east-1");
      const client = await Client.connect(server.url.href, { elicitationCallback: callback });
      expect(client.serverInfo?.name).toBe("provisioning");
      expect(await provision(client, asked)).toEqual([
        { type: "text", text: "Provisioned orders in us-east-1" },
      ]);
    } finally {
      await server.close();
    }
  });

  it("completes over stdio with a real child process", async () => {
    const { asked, callback } = answering("ap-south-1");
    const client = await Client.connect(
      {
        command: process.execPath,
        args: ["--import", "tsx", "examples/run.ts", "provisioning", "--stdio"],
        cwd: root,
      },
      { elicitationCallback: callback },
    );
    expect(await provision(client, asked)).toEqual([
      { type: "text", text: "Provisioned orders in ap-south-1" },
    ]);
  });
});

describe("the low-level provisioning server", () => {
  it("ends the call when the user declines, and asks again for a region it does not offer", async () => {
    const declined: string[] = [];
    const decliner = await Client.connect(createProvisioningServer(), {
      elicitationCallback: (_params, context) => {
        declined.push(context.key);
        return { action: "decline" };
      },
    });
    const result = await decliner.callTool("provision", { name: "orders" });
    await decliner.close();
    expect(result.content).toEqual([{ type: "text", text: "Not provisioned: no region was chosen" }]);
    expect(declined).toEqual(["region"]);

    const client = await Client.connect(createProvisioningServer());
    const leg = await client.session.callTool(
      "provision",
      { name: "orders" },
      {
        allowInputRequired: true,
        inputResponses: { region: { action: "accept", content: { region: "mars-1" } } },
        requestState: "provision-v1",
      },
    );
    await client.close();
    expect(leg).toMatchObject({ resultType: "input_required", inputRequests: { region: {} } });
  });
});

describe("the briefing prompt over Streamable HTTP on 127.0.0.1", () => {
  it("asks who the briefing is for, then completes with the answer", async () => {
    const server = await serve(createProvisioningServer(), { host: "127.0.0.1", port: 0 });
    const asked: string[] = [];
    const client = await Client.connect(server.url.href, {
      elicitationCallback: (params, context) => {
        asked.push(`${context.key}: ${params.message}`);
        return { action: "accept", content: { audience: "the on-call team" } };
      },
    });
    try {
      expect((await client.listPrompts()).prompts).toEqual([
        { name: "briefing", description: "A status briefing; asks who it is for." },
      ]);
      const first = await client.session.getPrompt("briefing", undefined, { allowInputRequired: true });
      expect(first).toMatchObject({
        resultType: "input_required",
        inputRequests: { audience: ASK_AUDIENCE },
      });
      expect(asked).toEqual([]);

      const result = await client.getPrompt("briefing");
      expect(asked).toEqual(["audience: Who is the briefing for?"]);
      expect(result).toMatchObject({
        description: "A briefing for the on-call team",
        messages: [
          {
            role: "user",
            content: { type: "text", text: "Write a short status briefing for the on-call team." },
          },
        ],
      });
      expect(result).not.toHaveProperty("inputRequests");
    } finally {
      await client.close();
      await server.close();
    }
  });

  it.each(["decline", "cancel"] as const)("is not asked again when the user answers %s", async (action) => {
    const server = await serve(createProvisioningServer(), { host: "127.0.0.1", port: 0 });
    let asked = 0;
    const client = await Client.connect(server.url.href, {
      elicitationCallback: () => {
        asked++;
        return { action };
      },
    });
    try {
      const result = await client.getPrompt("briefing");
      expect(asked).toBe(1);
      expect(result.description).toBe("A briefing for the whole team");
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe("npm start", () => {
  const children: ReturnType<typeof spawn>[] = [];
  afterAll(() => {
    for (const child of children) child.kill("SIGKILL");
  });

  function start(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, ["--import", "tsx", "examples/start.ts", ...args], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
  }

  it("runs the two-round flow over real HTTP with --region and prints the result", async () => {
    const { code, stdout } = await start(["--region", "eu-west-1"]);
    expect(code).toBe(0);
    expect(stdout).toContain("← input_required (round 1)");
    expect(stdout).toContain('requestState "provision-v1" (echoed)');
    expect(stdout).toContain("Result: Provisioned orders in eu-west-1");
  });

  it.each([
    [["--region", "mars-1"], "--region must be one of eu-west-1, us-east-1, ap-south-1, got mars-1"],
    [["--region", ""], "--region must be one of eu-west-1, us-east-1, ap-south-1, got "],
    [["--bogus"], "Unknown option '--bogus'"],
  ])("refuses %j with a one-line usage error, not a stack trace", async (args, message) => {
    const { code, stderr } = await start(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain("Usage: npm start [-- --region <region>] [--name <name>]");
    expect(stderr).not.toContain("    at ");
  });

  it("takes the question's default when stdin is not a terminal", async () => {
    const { code, stdout } = await start([]);
    expect(code).toBe(0);
    expect(stdout).toContain("Result: Provisioned orders in eu-west-1");
  });
});
