/**
 * The middleware chain runs without promises when nothing in it waits, and still keeps the
 * `Middleware` contract: `next` always returns a promise, a failure after it is its rejection, and
 * sync and async middleware, handlers that throw and handlers that reject, mix in any order.
 */
import { describe, expect, it } from "vitest";
import { rpc } from "../../../../test/helpers/meta.js";
import { McpError } from "../protocol/errors.js";
import type { JSONRPCResponse } from "../protocol/jsonrpc.js";
import { inputRequestCapabilityGate } from "./capability-gate.js";
import type { Logger } from "./logger.js";
import type { Middleware, MiddlewareRequest, WireResult } from "./middleware.js";
import { Server, type ServerOptions } from "./server.js";

const quiet: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

function server(onCallTool: ServerOptions["onCallTool"]): Server {
  return new Server("chain", { logger: quiet, onCallTool });
}

async function call(target: Server): Promise<JSONRPCResponse> {
  return (await target.handle(rpc("tools/call", { name: "x" }), {
    signal: new AbortController().signal,
  })) as JSONRPCResponse;
}

function text(value: string) {
  return { content: [{ type: "text" as const, text: value }] };
}

describe("the middleware chain", () => {
  it("gives a middleware a next that returns a promise even when the handler answers at once", async () => {
    let returned: unknown;
    const target = server(() => text("now")).use((request, next) => {
      returned = next(request);
      return returned as Promise<WireResult>;
    });
    const response = await call(target);
    expect(returned).toBeInstanceOf(Promise);
    expect(response).toMatchObject({ result: { content: [{ text: "now" }] } });
  });

  it("hands a handler's synchronous throw to the middleware as a rejection of next, not a throw", async () => {
    const seen: string[] = [];
    const target = server(() => {
      throw new McpError(-32602, "refused at once");
    }).use((request, next) => {
      let pending: Promise<WireResult>;
      try {
        pending = next(request);
      } catch {
        seen.push("threw");
        return Promise.resolve(text("caught a throw"));
      }
      return pending.catch((error: unknown) => {
        seen.push("rejected");
        return text(`caught ${(error as McpError).message}`);
      });
    });
    const response = await call(target);
    expect(seen).toEqual(["rejected"]);
    expect(response).toMatchObject({ result: { content: [{ text: "caught refused at once" }] } });
  });

  it("answers the same error whether the handler throws at once or rejects later", async () => {
    const thrown = server(() => {
      throw new McpError(-32602, "bad");
    });
    const rejected = server(async () => {
      throw new McpError(-32602, "bad");
    });
    expect(await call(thrown)).toMatchObject({ error: { code: -32602, message: "bad" } });
    expect(await call(rejected)).toMatchObject({ error: { code: -32602, message: "bad" } });
  });

  it("answers the McpError a synchronous middleware throws and one an async middleware rejects with", async () => {
    const syncThrow = server(() => text("unreached")).use(() => {
      throw new McpError(-32602, "sync middleware");
    });
    const asyncReject = server(() => text("unreached")).use(async () => {
      throw new McpError(-32602, "async middleware");
    });
    expect(await call(syncThrow)).toMatchObject({ error: { message: "sync middleware" } });
    expect(await call(asyncReject)).toMatchObject({ error: { message: "async middleware" } });
  });

  it("runs sync and async middleware around sync and async handlers in the order added", async () => {
    for (const handler of [() => text("h"), async () => text("h")]) {
      const order: string[] = [];
      const target = server(handler)
        .use((request, next) => {
          order.push("sync in");
          return next(request).then((result) => {
            order.push("sync out");
            return result;
          });
        })
        .use(async (request, next) => {
          order.push("async in");
          const result = await next(request);
          order.push("async out");
          return result;
        })
        .use(inputRequestCapabilityGate());
      expect(await call(target)).toMatchObject({ result: { content: [{ text: "h" }] } });
      expect(order).toEqual(["sync in", "async in", "async out", "sync out"]);
    }
  });

  it("runs the rest of the chain again when a middleware calls next twice, and sends what it returns", async () => {
    let runs = 0;
    const target = server(() => text(`run ${++runs}`)).use(async (request, next) => {
      await next(request);
      return next(request);
    });
    expect(await call(target)).toMatchObject({ result: { content: [{ text: "run 2" }] } });
    expect(runs).toBe(2);
  });

  it("keeps a built-in middleware a Middleware when called by hand: a throw of next is its rejection", async () => {
    const gate = inputRequestCapabilityGate();
    const request = { method: "tools/call" } as MiddlewareRequest;
    const failing = gate(request, () => {
      throw new McpError(-32602, "downstream");
    });
    expect(failing).toBeInstanceOf(Promise);
    await expect(failing).rejects.toThrow("downstream");
    const passing: ReturnType<Middleware> = gate(request, async () => ({ resultType: "complete" }));
    await expect(passing).resolves.toEqual({ resultType: "complete" });
  });

  it("lets a handler wait on the request's abort signal behind synchronous middleware", async () => {
    const controller = new AbortController();
    const target = server(
      (ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener("abort", () => reject(new McpError(-32602, "aborted")));
        }),
    ).use((request, next) => next(request));
    const pending = target.handle(rpc("tools/call", { name: "x" }), { signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ error: { message: "aborted" } });
  });
});
