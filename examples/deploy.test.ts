/**
 * The deploy example, run through a real client over Streamable HTTP on 127.0.0.1 with the legs
 * counted on the wire (every POST the client sends), and as `npm run example -- deploy`.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client } from "tsmcp/client";
import { serve } from "tsmcp/node";
import { HttpClientTransport } from "tsmcp/transport";
import { describe, expect, it, onTestFinished } from "vitest";
import { consoleLines, PROCESS_LOCAL_KEY_WARNING, warningOfProcessLocalKey } from "../test/helpers/logs.js";
import { createDeployServer, scriptedUser } from "./deploy.js";

const root = fileURLToPath(new URL("..", import.meta.url));

/** A `fetch` that records the JSON-RPC method and the answered keys of every message it POSTs. */
function countingFetch() {
  const posts: { method: string; answered: string[] }[] = [];
  const wrapped: typeof fetch = async (input, init) => {
    const message = JSON.parse(String(init?.body ?? "{}")) as {
      method?: string;
      params?: { inputResponses?: object };
    };
    posts.push({
      method: String(message.method),
      answered: Object.keys(message.params?.inputResponses ?? {}),
    });
    return fetch(input, init);
  };
  return { posts, fetch: wrapped };
}

async function deployOverHttp(target: "staging" | "production") {
  const mcp = createDeployServer();
  const server = await warningOfProcessLocalKey(() => serve(mcp, { host: "127.0.0.1", port: 0 }));
  onTestFinished(() => server.close());
  const wire = countingFetch();
  const client = await Client.connect(new HttpClientTransport(server.url, { fetch: wire.fetch }), {
    elicitationCallback: scriptedUser(target),
  });
  onTestFinished(() => client.close());
  const result = await client.callTool("deploy", { service: "billing", version: "2.4.0" });
  return { result, legs: wire.posts.filter((post) => post.method === "tools/call") };
}

describe("the deploy example", () => {
  it("completes in exactly two retries: the independent questions together, then the dependent one", async () => {
    const printed = consoleLines("log");
    const { result, legs } = await deployOverHttp("production");
    expect(result.content).toEqual([
      { type: "text", text: "Deployed billing 2.4.0 to production. Notes: Faster checkout." },
    ]);
    expect(printed).toEqual([
      'round 1 · environment: Where should billing 2.4.0 be deployed? -> {"environment":"production"}',
      'round 1 · notes: Release notes for billing 2.4.0? -> {"notes":"Faster checkout."}',
      'round 2 · approval: Deploy billing 2.4.0 to production? -> {"approve":true}',
    ]);
    expect(legs.map((leg) => leg.answered)).toEqual([[], ["environment", "notes"], ["approval"]]);
  });

  it("advertises only the service and version as arguments", async () => {
    const mcp = createDeployServer();
    const server = await warningOfProcessLocalKey(() => serve(mcp, { host: "127.0.0.1", port: 0 }));
    onTestFinished(() => server.close());
    const client = await Client.connect(server.url);
    onTestFinished(() => client.close());
    const [tool] = (await client.listTools()).tools;
    expect(Object.keys((tool?.inputSchema.properties ?? {}) as object)).toEqual(["service", "version"]);
  });
});

describe("npm run example -- deploy", () => {
  it("prints two rounds of questions and the deployment", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "examples/run.ts", "deploy", "orders", "1.0.0"],
      {
        cwd: root,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    onTestFinished(() => {
      child.kill("SIGKILL");
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    expect(stderr.trim().split("\n")).toEqual([expect.stringMatching(PROCESS_LOCAL_KEY_WARNING)]);
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^deployer listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(lines.slice(1)).toEqual([
      'round 1 · environment: Where should orders 1.0.0 be deployed? -> {"environment":"staging"}',
      'round 1 · notes: Release notes for orders 1.0.0? -> {"notes":"Faster checkout."}',
      'round 2 · approval: Deploy orders 1.0.0 to staging? -> {"approve":true}',
      "Deployed orders 1.0.0 to staging. Notes: Faster checkout.",
    ]);
  });
});
