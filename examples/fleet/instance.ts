/**
 * One instance of a fleet: an `MCPServer` whose tools ask the user two or three questions in a row,
 * sealed under keys every instance shares, so any instance can serve any round of a flow. Behind a
 * load balancer, start as many as you like; `test/fleet/run.ts` starts three behind nginx.
 *
 * Environment:
 * - `MCP_STATE_KEYS`: the requestState key ring, comma-separated base64url secrets of 32 bytes or
 *   more each, the sealing key first (see docs/deploying.md for rotation);
 * - `MCP_AUDIENCE`: the audience every instance of this service shares (default `fleet`);
 * - `MCP_STATE_TTL_MS`: how long one round's state stays valid (default 600000, ten minutes);
 * - `INSTANCE_ID`: a name for this instance in the request log; `PORT`: the port on 127.0.0.1;
 * - `REDIS_URL` (optional): a Redis every instance shares for handshake-era sessions, their SSE
 *   events, tasks and the messages between instances; with it, any instance serves any 2025-11-25
 *   session and any task's `tasks/get` and `tasks/cancel`, and no session affinity is needed (see
 *   docs/deploying.md). Without it, tasks live in the instance that runs them;
 * - `MCP_TASK_LEASE_MS`: how long a task's claim by the instance running it holds unless renewed
 *   (default `DEFAULT_TASK_LEASE_MS`, 15 s): once an instance died, its tasks read `failed` after
 *   at most this long.
 *
 * Besides the flows' tools, `touch` tells every subscriber of `fleet://news/{n}` that it changed
 * (`notifications/resources/updated`, to every instance's subscribers), and `build` runs only as a
 * task (tasks extension), on the instance that took the call, for `workMs` milliseconds or until
 * cancelled.
 *
 * Writes one line per request to stdout: `mcp-request instance=<id> method=<m> tool=<t> flow=<f> leg=<n>`,
 * where leg 1 is the first call and leg n answers question n-1; and for each `build`,
 * `task-started instance=<id> task=<taskId>` when it starts and `task-aborted instance=<id>
 * task=<taskId> reason=<why>` when its signal stops it (a cancel, from whichever instance). Ends
 * gracefully on SIGTERM (in-flight requests finish first; the tasks still running here are marked
 * failed).
 */
import { serve } from "tsmcp/node";
import {
  DEFAULT_REQUEST_STATE_TTL_MS,
  DEFAULT_TASK_LEASE_MS,
  elicit,
  MCPServer,
  type Middleware,
  RequestStateSecurity,
  type ResolverInput,
  resolver,
  TaskManager,
} from "tsmcp/server";
import { createRedisState } from "tsmcp-redis";
import * as z from "zod";

const Flow = z.object({ flow: z.string().min(1) });
type FlowArgs = z.infer<typeof Flow>;
const Answer = z.object({ value: z.string() });

const first = resolver("step1", ({ args }: ResolverInput<FlowArgs>) =>
  elicit(`${args.flow}: first?`, Answer),
);
const second = resolver("step2", { needs: { first } }, ({ args, needs }) =>
  elicit(`${args.flow}: second, after ${needs.first.value}?`, Answer),
);
const third = resolver("step3", { needs: { second } }, ({ args, needs }) =>
  elicit(`${args.flow}: third, after ${needs.second.value}?`, Answer),
);

/** The leg of a `tools/call` this request is: 1 + the number of the question it answers. */
function legOf(params: Record<string, unknown>): number {
  const answered = Object.keys((params.inputResponses as object | undefined) ?? {});
  const step = Math.max(0, ...answered.map((key) => Number(/^step(\d)$/.exec(key)?.[1] ?? 0)));
  return step + 1;
}

/** A request log line naming this instance, so the rounds of a flow can be traced across the fleet. */
function requestLog(instance: string): Middleware {
  return (request, next) => {
    const params = request.params as Record<string, unknown>;
    const args = (params.arguments as { flow?: unknown } | undefined) ?? {};
    const fields =
      request.method === "tools/call"
        ? ` tool=${String(params.name)} flow=${String(args.flow)} leg=${legOf(params)}`
        : "";
    process.stdout.write(`mcp-request instance=${instance} method=${request.method}${fields}\n`);
    return next(request);
  };
}

// With REDIS_URL, sessions, their events, tasks and the messages between instances live in Redis.
const redisUrl = process.env.REDIS_URL;
const state = redisUrl === undefined ? undefined : await createRedisState({ url: redisUrl });
// Every instance shares the task store and the bus: any one answers for a task another runs, and
// a cancel reaches the instance running it. A task whose instance died reads `failed` once its
// lease (renewed every third of leaseMs) lapsed.
const tasks = new TaskManager({
  ...(state === undefined ? {} : { store: state.tasks, bus: state.bus }),
  leaseMs: Number(process.env.MCP_TASK_LEASE_MS ?? DEFAULT_TASK_LEASE_MS),
});

// Every instance gets the same keys (sealing key first) and the same audience, so each one opens
// the states another sealed. A key: 32 random bytes or more, base64url, from your secret store.
const requestStateSecurity = new RequestStateSecurity({
  keys: (process.env.MCP_STATE_KEYS ?? "").split(",").map((key) => Buffer.from(key.trim(), "base64url")),
  audience: process.env.MCP_AUDIENCE ?? "fleet",
  ttlMs: Number(process.env.MCP_STATE_TTL_MS ?? DEFAULT_REQUEST_STATE_TTL_MS),
});
const mcp = new MCPServer("fleet", { version: "1.0.0", requestStateSecurity, tasks });

const instance = process.env.INSTANCE_ID ?? String(process.pid);
mcp.use(requestLog(instance));
mcp.tool(
  "ask-twice",
  { description: "Asks two questions in a row.", inputSchema: Flow, resolve: { first, second } },
  async ({ flow }, ctx) => `${flow}: ${ctx.resolved.first.value}, ${ctx.resolved.second.value}`,
);
mcp.tool(
  "ask-three-times",
  { description: "Asks three questions in a row.", inputSchema: Flow, resolve: { first, second, third } },
  async ({ flow }, ctx) =>
    `${flow}: ${ctx.resolved.first.value}, ${ctx.resolved.second.value}, ${ctx.resolved.third.value}`,
);

mcp.resource("fleet://news/{n}", { mimeType: "text/plain" }, async ({ n }) => `news ${n}`);
mcp.tool(
  "touch",
  {
    description: "Tells the subscribers of a news item that it changed.",
    inputSchema: z.object({ n: z.string() }),
  },
  async ({ n }) => {
    // Answer only once the update is on the bus: an instance killed between answering and
    // publishing would otherwise acknowledge an update no subscriber ever gets.
    if (!(await mcp.notifyResourceUpdated(`fleet://news/${n}`))) {
      throw new Error(`the update of fleet://news/${n} could not be published; call touch again`);
    }
    return `touched ${n}`;
  },
);

/** Resolves after `ms` milliseconds (never without `ms`); rejects with the signal's reason once it aborts. */
function work(ms: number | undefined, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = ms === undefined ? undefined : setTimeout(resolve, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
  });
}

mcp.tool(
  "build",
  {
    description: "Builds a target, as a task: works for workMs milliseconds, or until cancelled.",
    inputSchema: z.object({ target: z.string(), workMs: z.number().int().min(0).optional() }),
    task: "required",
  },
  async ({ target, workMs }, ctx) => {
    const names = `instance=${instance} task=${ctx.task?.taskId}`;
    process.stdout.write(`task-started ${names}\n`);
    await ctx.task?.setStatusMessage(`building ${target} on instance ${instance}`);
    try {
      await work(workMs, ctx.signal);
    } catch (error) {
      const reason = ctx.signal.reason as { message?: unknown } | undefined;
      process.stdout.write(`task-aborted ${names} reason=${String(reason?.message ?? reason)}\n`);
      throw error;
    }
    return `built ${target}`;
  },
);

const server = await serve(mcp, {
  host: "127.0.0.1",
  port: Number(process.env.PORT ?? 0),
  ...(state === undefined ? {} : { state }),
});
process.stdout.write(`${JSON.stringify({ instance, url: server.url.href, pid: process.pid })}\n`);
// A rolling restart sends SIGTERM: stop accepting, let in-flight requests finish, then exit.
process.once("SIGTERM", () => {
  void server.close().then(async () => {
    mcp.close();
    await tasks.close(); // the tasks still running here read failed at once, not a lease later
    await state?.close();
    process.exit(0);
  });
});
