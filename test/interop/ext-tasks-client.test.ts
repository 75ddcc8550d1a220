/**
 * The official client package for tasks, `@modelcontextprotocol/ext-tasks` 0.2.2, driving a tsmcp
 * `MCPServer` served over HTTP on 127.0.0.1 at 2026-07-28. The package sits on the official 2.4.0
 * client (`@modelcontextprotocol/client`, `versionNegotiation: { mode: "auto" }`), which does the
 * `server/discover` and `tools/list`; the package's task requests (`tools/call`, `tasks/*`) go
 * through the host's raw request path (`rawDispatch`, here `RawHttpCoordinator`, plain JSON-RPC
 * POSTs) with the per-request framing the package adds. Covered: a task that asks the user inside
 * the task (`ctx.elicit`), answered through the package's input handler and `tasks/update`; a task
 * handed off by reference and resumed on a second client, which answers the question asked after;
 * a tool without `task` answered at once; a cancel; a task that fails with a JSON-RPC error.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  createApplicationInputHandler,
  createTaskSessionFromClient,
  type ResolvedInputExchangeContext,
  resultFromTaskOutcome,
  type SerializedTaskReference,
  TaskCancelledError,
  type TaskEnabledSession,
  TaskFailedError,
} from "@modelcontextprotocol/ext-tasks/client";
import type { JsonValue, TaskId } from "@modelcontextprotocol/ext-tasks/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { type HttpServerHandle, serve } from "../../packages/tsmcp/src/node/index.js";
import { McpError } from "../../packages/tsmcp/src/protocol/index.js";
import { MCPServer } from "../../packages/tsmcp/src/server/index.js";
import { testRequestStateSecurity } from "../helpers/request-state.js";
import { RawHttpCoordinator } from "./raw-http-coordinator.js";

const TASKS = "io.modelcontextprotocol/tasks";
const CLIENT_INFO = { name: "ext-tasks-interop", version: "1.0.0" };

/** A promise with its resolver. */
function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** What the server's handlers saw of the cancelled task. */
const cancelHandler = { started: deferred<string>(), aborted: deferred() };
/** Holds `book_later` before it asks its question. */
const bookLaterGate = deferred();

function createTaskServer(): MCPServer {
  const mcp = new MCPServer("tsmcp-ext-tasks-interop", {
    version: "1.0.0",
    requestStateSecurity: testRequestStateSecurity(),
    tasks: { pollIntervalMs: 20 },
  });
  mcp.tool("greet", { inputSchema: z.object({ name: z.string() }) }, ({ name }) => `Hello, ${name}!`);
  mcp.tool(
    "book_table",
    {
      description: "Asks which evening, then books",
      inputSchema: z.object({ guests: z.number() }),
      task: "required",
    },
    async ({ guests }, ctx) => {
      const answer = await ctx.elicit({
        message: `Which evening for ${guests}?`,
        requestedSchema: {
          type: "object",
          properties: { evening: { type: "string" } },
          required: ["evening"],
        },
      });
      if (answer.action !== "accept") return `Not booked (${answer.action})`;
      ctx.task?.setStatusMessage("booking");
      return `Booked a table for ${guests} on ${String(answer.content?.evening)}`;
    },
  );
  mcp.tool(
    "book_later",
    { description: "Asks which evening once the gate opens", task: "required" },
    async (_args, ctx) => {
      await bookLaterGate.promise;
      const answer = await ctx.elicit({
        message: "Which evening, later?",
        requestedSchema: {
          type: "object",
          properties: { evening: { type: "string" } },
          required: ["evening"],
        },
      });
      return `Booked later on ${String(answer.content?.evening)}`;
    },
  );
  mcp.tool(
    "wait_for_cancel",
    { description: "Waits until cancelled", task: "required" },
    async (_args, ctx) => {
      cancelHandler.started.resolve(ctx.task?.taskId ?? "");
      await new Promise<void>((resolve) =>
        ctx.signal.addEventListener("abort", () => resolve(), { once: true }),
      );
      cancelHandler.aborted.resolve();
      return "stopped";
    },
  );
  mcp.tool("lose_worker", { description: "Fails with a protocol error", task: "required" }, async () => {
    await new Promise((resolve) => setImmediate(resolve));
    throw McpError.of("INTERNAL_ERROR", "The job lost its worker", { worker: 7 });
  });
  return mcp;
}

/** An official 2.4.0 client at 2026-07-28 with a tasks session of the package on it. */
interface Host {
  readonly client: Client;
  readonly coordinator: RawHttpCoordinator;
  readonly session: TaskEnabledSession;
  close(): Promise<void>;
}

let server: HttpServerHandle;
let client: Client;
let coordinator: RawHttpCoordinator;
let session: TaskEnabledSession;
const hosts: Host[] = [];
const questions: { message: unknown; context: ResolvedInputExchangeContext }[] = [];
const backgroundErrors: Error[] = [];

/** Connects a host to the server; its input handler records each question and answers Friday. */
async function openHost(): Promise<Host> {
  const client = new Client(CLIENT_INFO, {
    versionNegotiation: { mode: "auto" },
    capabilities: { elicitation: {} },
  });
  await client.connect(new StreamableHTTPClientTransport(server.url));
  const coordinator = new RawHttpCoordinator(server.url, "2026-07-28");
  const session = createTaskSessionFromClient(client, {
    endpointId: "tsmcp-ext-tasks-interop",
    rawDispatch: (request, options) => coordinator.dispatch(request, options),
    v2RequestFraming: {
      protocolVersion: "2026-07-28",
      clientInfo: CLIENT_INFO,
      clientCapabilities: { elicitation: {} },
    },
    onInputRequest: createApplicationInputHandler({
      elicitation: async (request, context) => {
        questions.push({ message: request.params.message, context });
        return { action: "accept", content: { evening: "Friday" } };
      },
      sampling: async () => {
        throw new Error("this host does no sampling");
      },
      roots: async () => ({ roots: [] }),
    }),
    onError: (error) => backgroundErrors.push(error),
  });
  const host: Host = {
    client,
    coordinator,
    session,
    close: async () => {
      await session.close();
      await client.close();
    },
  };
  hosts.push(host);
  return host;
}

beforeAll(async () => {
  server = await serve(createTaskServer(), { host: "127.0.0.1", port: 0 });
  ({ client, coordinator, session } = await openHost());
});

afterAll(async () => {
  await Promise.all(hosts.map((host) => host.close()));
  await server?.close();
});

/** The text of a tool result's first content block. */
function textOf(result: unknown): unknown {
  return (result as { content?: { text?: unknown }[] }).content?.[0]?.text;
}

/** The `_meta` of a request the coordinator sent. */
function declaredExtensions(params: Record<string, JsonValue>): unknown {
  const meta = params._meta as Record<string, { extensions?: unknown }> | undefined;
  return meta?.["io.modelcontextprotocol/clientCapabilities"]?.extensions;
}

describe("@modelcontextprotocol/ext-tasks 0.2.2 against a tsmcp task server at 2026-07-28", () => {
  it("finds the tasks extension in server/discover and works as a tasks session", () => {
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getServerCapabilities()?.extensions?.[TASKS]).toEqual({});
    expect(session.capabilities).toMatchObject({ execution: true, cancellation: true, inputResponses: true });
  });

  it("runs a task that asks the user: the input handler answers, tasks/update delivers it, the result carries it", async () => {
    const execution = await session.callTool("book_table", { guests: 2 });
    expect(execution.kind).toBe("task");
    const taskId = execution.handle?.taskId as string;
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe("completed");
    expect(textOf(resultFromTaskOutcome(outcome))).toBe("Booked a table for 2 on Friday");

    const asked = questions.filter((question) => question.context.taskId === taskId);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.message).toBe("Which evening for 2?");
    expect(asked[0]?.context).toMatchObject({ scope: "task", delivery: "task-update" });

    const call = coordinator.sent.find((sent) => sent.method === "tools/call");
    expect(call?.headers["mcp-name"]).toBe("book_table");
    expect(declaredExtensions(call?.params ?? {})).toEqual({ [TASKS]: {} });
    const updates = coordinator.sent.filter((sent) => sent.method === "tasks/update");
    expect(updates).toHaveLength(1);
    expect(updates[0]?.headers["mcp-name"]).toBe(taskId);
    expect(updates[0]?.params.taskId).toBe(taskId);
    expect(Object.values(updates[0]?.params.inputResponses ?? {})).toEqual([
      { action: "accept", content: { evening: "Friday" } },
    ]);
    expect(coordinator.sent.filter((sent) => sent.method === "tasks/get").length).toBeGreaterThan(0);
    for (const sent of coordinator.sent.filter((s) => s.method.startsWith("tasks/"))) {
      expect(sent.headers["mcp-name"]).toBe(taskId);
      expect(declaredExtensions(sent.params)).toEqual({ [TASKS]: {} });
    }
    expect(backgroundErrors).toEqual([]);
  });

  it("hands a task off by reference and resumes it on another client: the question asked after is answered there", async () => {
    const execution = await session.callTool("book_later", {});
    expect(execution.kind).toBe("task");
    let reference: SerializedTaskReference | undefined;
    if (execution.kind === "task") {
      await execution.handoff((persisted) => {
        reference = JSON.parse(JSON.stringify(persisted)) as SerializedTaskReference;
      });
    }
    expect(reference).toMatchObject({ generation: "v2", originalOperation: "tools/call" });
    bookLaterGate.resolve();
    const other = await openHost();
    const resumed = await other.session.resumeTask(reference as SerializedTaskReference);
    const { outcome } = await resumed.settle();
    expect(textOf(resultFromTaskOutcome(outcome))).toBe("Booked later on Friday");
    expect(questions.filter((question) => question.context.taskId === reference?.taskId)).toHaveLength(1);
    expect(other.coordinator.sent.filter((sent) => sent.method === "tasks/update")).toHaveLength(1);
  });

  it("takes the result of a tool not declared as a task at once", async () => {
    const execution = await session.callTool("greet", { name: "Ada" });
    expect(execution.kind).toBe("immediate");
    const { outcome } = await execution.settle();
    expect(textOf(resultFromTaskOutcome(outcome))).toBe("Hello, Ada!");
  });

  it("cancels a running task: the handler's signal aborts and the task ends cancelled", async () => {
    const execution = await session.callTool("wait_for_cancel", {});
    const taskId = execution.handle?.taskId as TaskId;
    expect(await cancelHandler.started.promise).toBe(taskId);
    await execution.cancel();
    await cancelHandler.aborted.promise;
    const outcome = await execution.result();
    expect(outcome.status).toBe("cancelled");
    expect(() => resultFromTaskOutcome(outcome)).toThrow(TaskCancelledError);
    const cancel = coordinator.sent.find((sent) => sent.method === "tasks/cancel");
    expect(cancel?.headers["mcp-name"]).toBe(taskId);
    expect((await session.task(taskId).snapshot()).status).toBe("cancelled");
  });

  it("reports a task that failed with a JSON-RPC error as failed, with its code and data", async () => {
    const execution = await session.callTool("lose_worker", {});
    expect(execution.kind).toBe("task");
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe("failed");
    const error = outcome.status === "failed" ? outcome.error : undefined;
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error).toMatchObject({ code: -32603, message: "The job lost its worker", data: { worker: 7 } });
    expect(() => resultFromTaskOutcome(outcome)).toThrow(TaskFailedError);
  });
});
