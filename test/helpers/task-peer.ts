/**
 * A minimal peer that serves the tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28) over
 * Streamable HTTP on 127.0.0.1, written from the extension's wire text alone, for testing clients:
 * `server/discover` (advertising the extension), `tools/list`, `tools/call` answered with a plain
 * result or a flat `CreateTaskResult` (`resultType: "task"`) when the request declares the
 * extension (-32021 naming it for a task-only tool otherwise), `tasks/get` (the DetailedTask),
 * `tasks/update` and `tasks/cancel` (empty acknowledgements), -32602 for an unknown task, and
 * -32601 for `tasks/list` and `tasks/result`. Each task moves on by a script run at every
 * `tasks/get`. It records every request with its `Mcp-Method` and `Mcp-Name` headers.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** The extension's identifier. */
export const TASKS = "io.modelcontextprotocol/tasks";

/** One request the peer received. */
export interface PeerRequest {
  readonly method: string;
  readonly params: Record<string, unknown>;
  /** Whether the request declared the tasks extension in its per-request capabilities. */
  readonly declaresTasks: boolean;
  readonly mcpMethod: string | undefined;
  readonly mcpName: string | undefined;
}

/** A task as the peer keeps it; scripts change it in place. */
export interface PeerTask {
  readonly taskId: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  statusMessage?: string;
  pollIntervalMs?: number;
  inputRequests?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  /** `tasks/get` answered for it so far (the current one included while the script runs). */
  polls: number;
  /** Every answer `tasks/update` brought, by key (the latest per key). */
  answers: Record<string, unknown>;
  /** How many times each key was answered. */
  answerCounts: Record<string, number>;
}

/** How one tool behaves. */
export interface PeerTool {
  /** Answer at once with this result (no task). */
  readonly immediate?: (args: Record<string, unknown>) => Record<string, unknown>;
  /** Refuse callers that do not declare the extension with -32021. */
  readonly taskOnly?: boolean;
  /** The created task's suggested polling interval. */
  readonly pollIntervalMs?: number;
  /** Moves the task on; runs before each `tasks/get` answer. */
  readonly step?: (task: PeerTask) => void;
}

/** A running peer. */
export interface TaskPeer {
  readonly url: URL;
  readonly requests: PeerRequest[];
  readonly tasks: Map<string, PeerTask>;
  /** The requests of one method. */
  of(method: string): PeerRequest[];
  close(): Promise<void>;
}

const text = (value: string) => ({ content: [{ type: "text", text: value }] });

/** A form elicitation asking for `field`, as an `inputRequests` entry. */
export function askFor(field: string): Record<string, unknown> {
  return {
    method: "elicitation/create",
    params: {
      mode: "form",
      message: `What is your ${field}?`,
      requestedSchema: { type: "object", properties: { [field]: { type: "string" } }, required: [field] },
    },
  };
}

/** The tools every peer has, unless replaced. */
export const DEFAULT_TOOLS: Record<string, PeerTool> = {
  greet: { immediate: (args) => text(`Hello, ${String(args.name)}!`) },
  slow_compute: {
    taskOnly: true,
    pollIntervalMs: 200,
    step(task) {
      const steps = Number(task.args.steps ?? 2);
      if (task.polls <= steps) {
        task.statusMessage = `step ${task.polls} of ${steps}`;
        return;
      }
      task.status = "completed";
      task.statusMessage = "done";
      task.result = text(`computed ${String(task.args.label ?? "")}`.trim());
    },
  },
  failing_job: {
    step(task) {
      task.status = "failed";
      task.statusMessage = "Tool execution failed: rate limited";
      task.error = { code: -32603, message: "API rate limit exceeded", data: { retryAfterMs: 5000 } };
    },
  },
  forever: {
    pollIntervalMs: 500,
    step() {},
  },
  multi_input: {
    step(task) {
      const { first, second } = task.answers;
      if (first === undefined) {
        task.status = "input_required";
        task.statusMessage = "waiting for first";
        task.inputRequests = { first: askFor("name") };
      } else if (second === undefined) {
        // The first answer is still listed (the acknowledgement is eventually consistent): a
        // client that deduplicates does not ask it again.
        task.status = "input_required";
        task.statusMessage = "waiting for second";
        task.inputRequests =
          task.polls % 2 === 0
            ? { first: askFor("name"), second: askFor("city") }
            : { second: askFor("city") };
      } else {
        task.status = "completed";
        task.statusMessage = "answered";
        delete task.inputRequests;
        const name = (first as { content?: { name?: string } }).content?.name;
        const city = (second as { content?: { city?: string } }).content?.city;
        task.result = text(`${name} lives in ${city}`);
      }
    },
  },
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}

/** Starts a peer on 127.0.0.1 with `tools` over the defaults. */
export async function startTaskPeer(tools: Record<string, PeerTool> = {}): Promise<TaskPeer> {
  const all = { ...DEFAULT_TOOLS, ...tools };
  const requests: PeerRequest[] = [];
  const tasks = new Map<string, PeerTask>();
  let next = 1;
  const now = () => new Date().toISOString();
  const plain = (task: PeerTask) => ({
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    createdAt: "2026-07-28T10:00:00Z",
    lastUpdatedAt: now(),
    ttlMs: 3_600_000,
    ...(task.pollIntervalMs === undefined ? {} : { pollIntervalMs: task.pollIntervalMs }),
  });
  const detailed = (task: PeerTask) => ({
    ...plain(task),
    ...(task.status === "input_required" ? { inputRequests: task.inputRequests ?? {} } : {}),
    ...(task.status === "completed" ? { result: task.result } : {}),
    ...(task.status === "failed" ? { error: task.error } : {}),
  });
  const missingTasks = {
    code: -32021,
    message: "Missing required client capability",
    data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
  };

  const answer = (request: PeerRequest): { result?: unknown; error?: unknown } => {
    const { method, params, declaresTasks } = request;
    if (method === "server/discover") {
      return {
        result: {
          resultType: "complete",
          supportedVersions: ["2026-07-28"],
          capabilities: { tools: {}, extensions: { [TASKS]: {} } },
          _meta: { "io.modelcontextprotocol/serverInfo": { name: "task-peer", version: "1.0.0" } },
        },
      };
    }
    if (method === "tools/list") {
      return {
        result: {
          resultType: "complete",
          tools: Object.keys(all).map((name) => ({ name, inputSchema: { type: "object" } })),
        },
      };
    }
    if (method === "tools/call") {
      const name = String(params.name);
      const tool = all[name];
      if (tool === undefined) return { error: { code: -32602, message: `Unknown tool: ${name}` } };
      const args = (params.arguments ?? {}) as Record<string, unknown>;
      if (tool.immediate !== undefined)
        return { result: { resultType: "complete", ...tool.immediate(args) } };
      if (!declaresTasks) {
        if (tool.taskOnly) return { error: missingTasks };
        const task = { status: "working" } as PeerTask;
        Object.assign(task, { taskId: "inline", tool: name, args, polls: 0, answers: {}, answerCounts: {} });
        for (let i = 0; i < 100 && task.status !== "completed"; i++) {
          task.polls++;
          tool.step?.(task);
        }
        if (task.status !== "completed")
          return { error: { code: -32603, message: `${name} did not finish` } };
        return { result: { resultType: "complete", ...task.result } };
      }
      const task: PeerTask = {
        taskId: `task-${next++}-${Math.random().toString(36).slice(2)}`,
        tool: name,
        args,
        status: "working",
        statusMessage: "The operation is now in progress.",
        ...(tool.pollIntervalMs === undefined ? {} : { pollIntervalMs: tool.pollIntervalMs }),
        polls: 0,
        answers: {},
        answerCounts: {},
      };
      tasks.set(task.taskId, task);
      return { result: { resultType: "task", ...plain(task) } };
    }
    if (method === "tasks/result" || method === "tasks/list") {
      return { error: { code: -32601, message: `Method not found: ${method}` } };
    }
    if (method === "tasks/get" || method === "tasks/update" || method === "tasks/cancel") {
      if (!declaresTasks) return { error: missingTasks };
      const task = tasks.get(String(params.taskId));
      if (task === undefined)
        return { error: { code: -32602, message: "Failed to retrieve task: Task not found" } };
      if (method === "tasks/get") {
        task.polls++;
        if (task.status === "working" || task.status === "input_required") all[task.tool]?.step?.(task);
        return { result: { resultType: "complete", ...detailed(task) } };
      }
      if (method === "tasks/update") {
        for (const [key, value] of Object.entries((params.inputResponses ?? {}) as Record<string, unknown>)) {
          task.answers[key] = value;
          task.answerCounts[key] = (task.answerCounts[key] ?? 0) + 1;
        }
        return { result: { resultType: "complete" } };
      }
      if (task.status === "working" || task.status === "input_required") {
        task.status = "cancelled";
        task.statusMessage = "The task was cancelled by request.";
      }
      return { result: { resultType: "complete" } };
    }
    return { error: { code: -32601, message: `Method not found: ${method}` } };
  };

  const server = createServer(async (req, res) => {
    if (req.method !== "POST") {
      res.writeHead(405).end();
      return;
    }
    const message = JSON.parse(await readBody(req)) as {
      id?: number | string;
      method: string;
      params?: Record<string, unknown>;
    };
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const params = message.params ?? {};
    const meta = (params._meta ?? {}) as Record<string, { extensions?: Record<string, unknown> } | undefined>;
    const header = (name: string) => {
      const value = req.headers[name];
      return typeof value === "string" ? value : undefined;
    };
    const request: PeerRequest = {
      method: message.method,
      params,
      declaresTasks: meta["io.modelcontextprotocol/clientCapabilities"]?.extensions?.[TASKS] !== undefined,
      mcpMethod: header("mcp-method"),
      mcpName: header("mcp-name"),
    };
    requests.push(request);
    const outcome = answer(request);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, ...outcome }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    requests,
    tasks,
    of: (method) => requests.filter((request) => request.method === method),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
