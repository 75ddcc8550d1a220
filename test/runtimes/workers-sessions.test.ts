/**
 * Handshake-era (2025-11-25) sessions on Cloudflare Workers through Durable Objects, run for real
 * under workerd by Miniflare (a pinned devDependency that brings its own workerd): the Worker of
 * `examples/edge/worker-sessions.ts`, configured from `examples/edge/wrangler.toml`, routes each
 * session to its own object, where the server asks the official 1.x client over the session
 * (`ctx.elicit`, a resolver) and gets the answer in a later POST. Sessions stay apart, an id naming
 * no session gets 404, DELETE ends a session, and a 2026-07-28 client is served by the Worker
 * itself. Spec (2025-11-25): basic/transports §Session Management, client/elicitation.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { Client } from "../../packages/tsmcp/src/client/client.js";
import { buildScratchPackage, REPO, type Scratch } from "./bundle.js";

const FLOW_TIMEOUT_MS = 90_000;
const STATE_KEY = randomBytes(32).toString("base64url");

/** The settings of `wrangler.toml` the test reads, so the file deployed is the file tested. */
interface WranglerConfig {
  readonly compatibilityDate: string;
  readonly compatibilityFlags: string[];
  readonly durableObjects: Record<string, string>;
}

/** Reads the few keys of the example's `wrangler.toml` (flat `key = value` lines and the bindings). */
async function wranglerConfig(): Promise<WranglerConfig> {
  const text = await readFile(join(REPO, "examples/edge/wrangler.toml"), "utf8");
  const value = (key: string) => new RegExp(`^${key} = (.+)$`, "m").exec(text)?.[1];
  const durableObjects: Record<string, string> = {};
  for (const match of text.matchAll(
    /\[\[durable_objects\.bindings\]\]\nname = "(\w+)"\nclass_name = "(\w+)"/g,
  )) {
    durableObjects[match[1] as string] = match[2] as string;
  }
  return {
    compatibilityDate: JSON.parse(value("compatibility_date") ?? '""') as string,
    compatibilityFlags: JSON.parse(value("compatibility_flags") ?? "[]") as string[],
    durableObjects,
  };
}

let scratch: Scratch | undefined;
let miniflare: Miniflare | undefined;
let url: URL;
/** What workerd wrote: kept out of the test output, shown when a test fails. */
let runtimeOutput = "";

beforeAll(async () => {
  scratch = await buildScratchPackage();
  const scriptPath = await scratch.bundle("examples/edge/worker-sessions.ts", "worker-sessions.mjs", [
    "workerd",
    "worker",
    "browser",
  ]);
  const config = await wranglerConfig();
  miniflare = new Miniflare({
    modules: true,
    scriptPath,
    modulesRoot: scratch.root,
    compatibilityDate: config.compatibilityDate,
    compatibilityFlags: config.compatibilityFlags,
    durableObjects: config.durableObjects,
    bindings: { STATE_KEY, MCP_HOSTNAME: "127.0.0.1" },
    host: "127.0.0.1",
    port: 0,
    handleRuntimeStdio(stdout, stderr) {
      for (const stream of [stdout, stderr]) {
        stream.setEncoding("utf8").on("data", (chunk: string) => {
          runtimeOutput += chunk;
        });
      }
    },
  });
  url = new URL("/mcp", await miniflare.ready);
}, FLOW_TIMEOUT_MS);

afterAll(async () => {
  await miniflare?.dispose();
  await scratch?.remove();
});

/** An official 1.x client on a session, answering every elicitation with `answer`. */
async function sdkClient(answer: Record<string, unknown>): Promise<{
  client: SdkClient;
  transport: StreamableHTTPClientTransport;
}> {
  const client = new SdkClient(
    { name: "legacy-app", version: "1.0.0" },
    { capabilities: { elicitation: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: answer }));
  const transport = new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  return { client, transport };
}

/** The text of a tool result's first block. */
function textOf(result: unknown): string {
  const [first] = (result as { content: { type: string; text?: string }[] }).content;
  return first?.type === "text" ? (first.text ?? "") : "";
}

/** A raw POST of a `ping` naming `sessionId`, as a session's client sends it. */
function pingWith(sessionId: string): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2025-11-25",
      "Mcp-Session-Id": sessionId,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }),
  });
}

describe("handshake-era sessions in Durable Objects, under workerd (Miniflare)", () => {
  beforeEach(() => {
    onTestFailed(() => console.error(`workerd's output:\n${runtimeOutput}`));
  });

  it(
    "an official 1.x client is asked over its session by ctx.elicit and by a resolver, and each result depends on its answer",
    async () => {
      const { client, transport } = await sdkClient({ ok: true, region: "us-east-1" });
      try {
        expect(transport.sessionId).toMatch(/^[0-9a-f]{64}\.[0-9a-f-]{36}$/);
        const wiped = await client.callTool({ name: "wipe", arguments: { disk: "sdb" } });
        expect(textOf(wiped)).toBe("Wiped sdb");
        const provisioned = await client.callTool({ name: "provision", arguments: { name: "db" } });
        expect(textOf(provisioned)).toBe("Provisioned db in us-east-1");
      } finally {
        await client.close();
      }
      const declining = await sdkClient({ ok: false, region: "eu-west-1" });
      try {
        const kept = await declining.client.callTool({ name: "wipe", arguments: { disk: "sdb" } });
        expect(textOf(kept)).toBe("Kept");
        const provisioned = await declining.client.callTool({ name: "provision", arguments: { name: "db" } });
        expect(textOf(provisioned)).toBe("Provisioned db in eu-west-1");
      } finally {
        await declining.client.close();
      }
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    "two sessions live in two objects, each gets its own answers, and one's object refuses the other's id",
    async () => {
      const a = await sdkClient({ region: "us-east-1" });
      const b = await sdkClient({ region: "eu-west-1" });
      try {
        const [idA, idB] = [a.transport.sessionId as string, b.transport.sessionId as string];
        const [objectA, innerA] = idA.split(".") as [string, string];
        const [objectB, innerB] = idB.split(".") as [string, string];
        expect(objectA).not.toBe(objectB);
        expect(innerA).not.toBe(innerB);
        const [resultA, resultB] = await Promise.all([
          a.client.callTool({ name: "provision", arguments: { name: "alpha" } }),
          b.client.callTool({ name: "provision", arguments: { name: "beta" } }),
        ]);
        expect(textOf(resultA)).toBe("Provisioned alpha in us-east-1");
        expect(textOf(resultB)).toBe("Provisioned beta in eu-west-1");
        const crossed = await pingWith(`${objectA}.${innerB}`);
        expect(crossed.status).toBe(404);
        await crossed.body?.cancel();
        expect((await pingWith(idA)).status).toBe(200);
      } finally {
        await a.client.close();
        await b.client.close();
      }
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    "an id naming no session gets 404 with a JSON-RPC error, and so does a session's id after DELETE",
    async () => {
      const { client, transport } = await sdkClient({});
      const id = transport.sessionId as string;
      const [objectId] = id.split(".") as [string];
      for (const unknown of [
        "not-a-session",
        `${"0".repeat(64)}.${randomUUID()}`,
        `${objectId}.${randomUUID()}`,
        `${objectId}.`,
      ]) {
        const response = await pingWith(unknown);
        expect(response.status, unknown).toBe(404);
        expect(await response.json()).toMatchObject({
          jsonrpc: "2.0",
          error: { code: -32600, message: "Session not found" },
        });
      }
      await transport.terminateSession();
      await client.close();
      const ended = await pingWith(id);
      expect(ended.status).toBe(404);
      await ended.body?.cancel();
    },
    FLOW_TIMEOUT_MS,
  );

  it(
    "a 2026-07-28 tsmcp client is served by the Worker itself, statelessly, with every question in the response",
    async () => {
      const client = await Client.connect(url.href, {
        elicitationCallback: async (params) => {
          const content: Record<string, string | boolean> = params.message.startsWith("Wipe")
            ? { ok: true }
            : { region: "eu-west-1" };
          return { action: "accept", content };
        },
      });
      try {
        expect(await client.callTool("wipe", { disk: "sdc" })).toMatchObject({
          content: [{ type: "text", text: "Wiped sdc" }],
        });
        expect(await client.callTool("provision", { name: "db" })).toMatchObject({
          content: [{ type: "text", text: "Provisioned db in eu-west-1" }],
        });
      } finally {
        await client.close();
      }
      const listed = await fetch(url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "MCP-Protocol-Version": "2026-07-28",
          "Mcp-Method": "tools/list",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/list",
          params: {
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientCapabilities": {},
            },
          },
        }),
      });
      expect(listed.status).toBe(200);
      expect(listed.headers.get("mcp-session-id")).toBeNull();
      await listed.body?.cancel();
    },
    FLOW_TIMEOUT_MS,
  );
});
