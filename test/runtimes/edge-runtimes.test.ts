/**
 * The web-standard handler and the client run on Bun, Deno and Cloudflare's workerd, as a user
 * deploys them: each runtime (from the npm registry, see `install.ts`) runs the bundled edge example
 * (`examples/edge/`), and a multi round-trip request completes against it: the tool answers
 * `input_required` with an elicitation, the client answers and retries with the sealed
 * `requestState`. On Bun and Deno a client process of the same runtime does the whole flow; on
 * workerd a client worker does it through a service binding, and a Node.js client over the socket.
 * The tool's arguments are a raw JSON Schema with a `pattern`, so on workerd (no code generation)
 * they are interpreted. On workerd a 2025-11-25 client is served without sessions, and the same
 * tool answers it a protocol error naming that limitation. A runtime that cannot be installed is skipped with its reason printed, or,
 * in CI, fails its test with that reason.
 * Spec: basic/patterns/mrtr, client/elicitation.
 */
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provision } from "../../examples/edge/client.js";
import { Client } from "../../packages/tsmcp/src/client/client.js";
import { buildScratchPackage, type Scratch } from "./bundle.js";
import { ensureRuntime, type Runtime, type RuntimeName, runtimeVerdict } from "./install.js";
import { firstLine, runToEnd, type Started, start } from "./processes.js";

const STATE_KEY = randomBytes(32).toString("base64url");
const FLOW_TIMEOUT_MS = 90_000;

const runtimes = Object.fromEntries(
  await Promise.all(
    (["bun", "deno", "workerd"] as const).map(async (name) => [name, await ensureRuntime(name)] as const),
  ),
) as Record<RuntimeName, Runtime>;
for (const [name, runtime] of Object.entries(runtimes)) {
  if (runtimeVerdict(runtime) === "skip" && !runtime.ok) {
    console.log(`edge runtimes: ${name} SKIPPED: ${runtime.reason}`);
  }
}

/** The test's title, with the reason it is skipped or fails when it is. */
function title(name: RuntimeName, what: string): string {
  const runtime = runtimes[name];
  if (runtime.ok) return `${what} (${name} ${runtime.version})`;
  return `${what} (${runtimeVerdict(runtime) === "fail" ? "NOT INSTALLED" : "SKIPPED"}: ${runtime.reason})`;
}

/** Skipped outside CI when the runtime is missing; in CI such a test runs and fails in `binary`. */
function skipped(name: RuntimeName): boolean {
  return runtimeVerdict(runtimes[name]) === "skip";
}

function binary(name: RuntimeName): string {
  const runtime = runtimes[name];
  if (!runtime.ok) throw new Error(`${name} is not installed: ${runtime.reason}`);
  return runtime.binary;
}

let scratch: Scratch | undefined;

function built(): Scratch {
  if (scratch === undefined) throw new Error("the package was not built");
  return scratch;
}

beforeAll(async () => {
  if (Object.values(runtimes).some((runtime) => runtime.ok)) scratch = await buildScratchPackage();
}, FLOW_TIMEOUT_MS);

afterAll(async () => {
  await scratch?.remove();
});

/**
 * From Node.js, checks the server at `url` the long way: the first call answers `input_required`
 * with the region question and a sealed state, arguments breaking the schema's pattern are
 * refused, and the `Client` loop completes the flow.
 */
async function checkServer(url: string): Promise<void> {
  const client = await Client.connect(url, {
    elicitationCallback: async () => ({ action: "accept", content: { region: "us-east-1" } }),
  });
  try {
    const first = await client.session.callTool("provision", { name: "db" }, { allowInputRequired: true });
    expect(first).toMatchObject({
      resultType: "input_required",
      inputRequests: { region: { method: "elicitation/create" } },
    });
    expect(JSON.stringify(first)).not.toContain('"db"');
    const refused = await client.callTool("provision", { name: "Not A Name" });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain("Invalid arguments for tool provision");
  } finally {
    await client.close();
  }
  expect(await provision(url, "db", "us-east-1")).toBe("Provisioned db in us-east-1");
}

/**
 * From Node.js, as a 2025-11-25 client without sessions: the worker completes the handshake
 * without a session id (workerd cannot hold a session's stream across requests), and the tool
 * whose resolver asks the user answers a protocol error saying so, not a tool result.
 */
async function checkHandshakeEraRefusal(url: string): Promise<void> {
  const post = (body: unknown) =>
    fetch(url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-11-25",
      },
      body: JSON.stringify(body),
    });
  const init = await post({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: { elicitation: {} },
      clientInfo: { name: "old", version: "1" },
    },
  });
  expect(init.status).toBe(200);
  expect(init.headers.get("mcp-session-id")).toBeNull();
  await init.body?.cancel();
  const call = await post({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "provision", arguments: { name: "db" } },
  });
  const body = (await call.json()) as { result?: unknown; error?: { code: number; message: string } };
  expect(body.result).toBeUndefined();
  expect(body.error?.code).toBe(-32600);
  expect(body.error?.message).toMatch(
    /^Cannot send 'elicitation\/create' to the client: .*Cloudflare Workers/,
  );
  expect(body.error?.message).toContain("2026-07-28");
}

function listeningUrl(started: Started): Promise<string> {
  const stdout = started.child.stdout;
  if (stdout === null) throw new Error("no stdout");
  return firstLine(started, stdout, (line) => /^listening (\S+)$/.exec(line)?.[1]);
}

describe.each([
  { name: "bun" as const, args: (file: string) => [file], conditions: ["bun"] },
  {
    name: "deno" as const,
    args: (file: string) => ["run", "--quiet", "--no-prompt", "--allow-net", "--allow-env", file],
    conditions: ["deno"],
  },
])("on $name", ({ name, args, conditions }) => {
  it.skipIf(skipped(name))(
    title(
      name,
      "the web handler serves a multi round-trip elicitation, and a client on the same runtime completes it",
    ),
    async () => {
      const runtime = binary(name);
      const server = await built().bundle(`examples/edge/${name}.ts`, `${name}-server.mjs`, conditions);
      const client = await built().bundle("test/runtimes/client-main.ts", `${name}-client.mjs`, conditions);
      const env = { STATE_KEY, PORT: "0", DENO_DIR: join(built().root, "deno"), DENO_NO_UPDATE_CHECK: "1" };
      const url = await listeningUrl(start(runtime, args(server), env));
      await checkServer(url);
      const printed = await runToEnd(runtime, args(client), { ...env, TSMCP_URL: url });
      expect(JSON.parse(printed)).toEqual({ text: "Provisioned orders in eu-west-1" });
    },
    FLOW_TIMEOUT_MS,
  );
});

/** workerd's configuration: the server worker and a client worker bound to it, each on a socket. */
function workerdConfig(): string {
  const flags = 'compatibilityDate = "2026-01-01", compatibilityFlags = ["nodejs_compat"]';
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "server", worker = .server), (name = "client", worker = .client)],
  sockets = [
    (name = "server", address = "127.0.0.1:0", http = (), service = "server"),
    (name = "client", address = "127.0.0.1:0", http = (), service = "client"),
  ],
);
const server :Workerd.Worker = (
  modules = [(name = "server.mjs", esModule = embed "workerd-server.mjs")],
  bindings = [
    (name = "STATE_KEY", text = ${JSON.stringify(STATE_KEY)}),
    (name = "MCP_HOSTNAME", text = "127.0.0.1"),
  ],
  ${flags},
);
const client :Workerd.Worker = (
  modules = [(name = "client.mjs", esModule = embed "workerd-client.mjs")],
  bindings = [(name = "SERVER", service = "server")],
  ${flags},
);
`;
}

/** Waits until workerd reports both sockets listening (its control messages on fd 3). */
async function workerdPorts(started: Started): Promise<{ server: number; client: number }> {
  const control = started.child.stdio[3];
  if (!(control instanceof Readable)) throw new Error("no control fd");
  const ports: Partial<Record<string, number>> = {};
  return firstLine(started, control, (line) => {
    const message = JSON.parse(line) as { event?: string; socket?: string; port?: number };
    if (message.event === "listen" && message.socket !== undefined) ports[message.socket] = message.port;
    return ports.server !== undefined && ports.client !== undefined
      ? { server: ports.server, client: ports.client }
      : undefined;
  });
}

describe("on workerd", () => {
  it.skipIf(skipped("workerd"))(
    title(
      "workerd",
      "a worker serves a multi round-trip elicitation with raw JSON Schemas, to a client worker and a Node.js client, and refuses a handshake-era question with a protocol error",
    ),
    async () => {
      const workerd = binary("workerd");
      const conditions = ["workerd", "worker", "browser"];
      await built().bundle("examples/edge/worker.ts", "workerd-server.mjs", conditions);
      await built().bundle("test/runtimes/client-worker.ts", "workerd-client.mjs", conditions);
      await writeFile(join(built().root, "workerd.capnp"), workerdConfig());
      const started = start(
        workerd,
        ["serve", "workerd.capnp", "--control-fd=3", "--verbose"],
        {},
        built().root,
      );
      const ports = await workerdPorts(started);
      try {
        await checkServer(`http://127.0.0.1:${ports.server}/mcp`);
        await checkHandshakeEraRefusal(`http://127.0.0.1:${ports.server}/mcp`);
        const inside = await fetch(`http://127.0.0.1:${ports.client}/`);
        expect(await inside.text()).toBe("Provisioned orders in us-east-1");
        expect(inside.status).toBe(200);
      } catch (error) {
        throw new Error(`${(error as Error).message}\nworkerd's stderr:\n${started.stderr()}`, {
          cause: error,
        });
      }
    },
    FLOW_TIMEOUT_MS,
  );
});
