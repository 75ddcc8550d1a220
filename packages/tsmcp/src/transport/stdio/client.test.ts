import { spawn } from "node:child_process";
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import type { JSONRPCNotification, JSONRPCResponse } from "../../protocol/jsonrpc.js";
import { TransportError } from "../transport.js";
import { ServerProcessExitedError, StdioClientTransport, type StdioClientTransportParams } from "./client.js";
import { DEFAULT_INHERITED_ENV_VARS } from "./environment.js";
import {
  callTool,
  fixtureCommand,
  INHERIT_CLIENT,
  linesOf,
  listenTools,
  REPO_ROOT,
  SCRIPTED_SERVER,
} from "./fixtures/harness.js";
import { DEFAULT_CLOSE_GRACE_PERIOD_MS, DEFAULT_TERMINATE_GRACE_PERIOD_MS } from "./terminate.js";

type TestContext = { onTestFinished: (fn: () => Promise<void> | void) => void };

/** A transport to the fixture server (its stderr dropped unless asked), closed when the test ends. */
function connect(
  context: TestContext,
  options: Partial<StdioClientTransportParams> = {},
  ...flags: string[]
): StdioClientTransport {
  const transport = new StdioClientTransport({ ...fixtureCommand(...flags), stderr: "ignore", ...options });
  context.onTestFinished(() => transport.close());
  return transport;
}

/** A transport to the scripted plain-JS server, closed when the test ends. */
function connectScripted(context: TestContext): { transport: StdioClientTransport; errors: Error[] } {
  const transport = new StdioClientTransport({ command: process.execPath, args: [SCRIPTED_SERVER] });
  const errors: Error[] = [];
  transport.onError = (error) => errors.push(error);
  context.onTestFinished(() => transport.close());
  return { transport, errors };
}

function script(id: number, lines: unknown[], respond = true) {
  return {
    jsonrpc: "2.0" as const,
    id,
    method: "script",
    params: { lines: lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))), respond },
  };
}

function textOf(response: JSONRPCResponse): string {
  if (!("result" in response)) throw new Error(`expected a result, got ${JSON.stringify(response)}`);
  return (response.result as { content: { text: string }[] }).content[0]?.text as string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    expect((error as NodeJS.ErrnoException).code).toBe("ESRCH");
    return false;
  }
}

describe("StdioClientTransport: construction", () => {
  it("pins the shutdown grace periods at 2000 ms each", () => {
    expect(DEFAULT_CLOSE_GRACE_PERIOD_MS).toBe(2000);
    expect(DEFAULT_TERMINATE_GRACE_PERIOD_MS).toBe(2000);
  });

  it("inherits only a short list of environment variables by default", () => {
    expect(DEFAULT_INHERITED_ENV_VARS).toContain("PATH");
    expect(DEFAULT_INHERITED_ENV_VARS.length).toBeLessThan(15);
  });

  it("refuses malformed params with TypeError or RangeError, before starting anything", () => {
    expect(() => new StdioClientTransport({ command: "" })).toThrow(TypeError);
    expect(() => new StdioClientTransport({} as never)).toThrow(TypeError);
    expect(() => new StdioClientTransport({ command: "x", args: [1] as never })).toThrow(TypeError);
    expect(() => new StdioClientTransport({ command: "x", env: { A: 1 } as never })).toThrow(TypeError);
    expect(() => new StdioClientTransport({ command: "x", cwd: 3 as never })).toThrow(TypeError);
    expect(() => new StdioClientTransport({ command: "x", stderr: "file" as never })).toThrow(TypeError);
    expect(() => new StdioClientTransport({ command: "x", closeGracePeriodMs: -1 })).toThrow(RangeError);
    expect(() => new StdioClientTransport({ command: "x", terminateGracePeriodMs: 0.5 })).toThrow(RangeError);
    expect(() => new StdioClientTransport({ command: "x", maxLineBytes: 0 })).toThrow(RangeError);
  });

  it("does not touch the params it was given", () => {
    const params = { command: "x", args: ["a"], env: { A: "1" } };
    const frozen = structuredClone(params);
    const transport = new StdioClientTransport(params);
    expect(params).toEqual(frozen);
    expect(transport.pid).toBeUndefined();
  });
});

describe("StdioClientTransport with the fixture server", () => {
  it("starts the server on first use and resolves a request with its response", async (context) => {
    const transport = connect(context);
    expect(transport.pid).toBeUndefined();
    const response = await transport.request(callTool(1, "echo", { text: "hello" }));
    expect(response).toMatchObject({ jsonrpc: "2.0", id: 1, result: { resultType: "complete" } });
    expect(textOf(response)).toBe("hello");
    expect(transport.pid).toBeTypeOf("number");
  });

  it("round-trips U+2028 and U+2029 in arguments untouched", async (context) => {
    const transport = connect(context);
    const text = "line\u2028separator\u2029paragraph\nnewline 😀";
    expect(textOf(await transport.request(callTool("u", "echo", { text })))).toBe(text);
  });

  it("answers a fast request while a slow one is still running", async (context) => {
    const transport = connect(context);
    const controller = new AbortController();
    const slow = transport.request(callTool("slow", "slow"), { signal: controller.signal });
    let slowSettled = false;
    slow.then(
      () => (slowSettled = true),
      () => (slowSettled = true),
    );
    expect(textOf(await transport.request(callTool("fast", "echo", { text: "fast" })))).toBe("fast");
    expect(slowSettled).toBe(false);
    controller.abort();
    await expect(slow).rejects.toThrow();
  });

  it("on abort sends notifications/cancelled, rejects with the signal's reason and aborts the server's handler", async (context) => {
    const transport = connect(context, { stderr: "pipe" });
    const stderr = linesOf(transport.stderr!);
    const controller = new AbortController();
    const slow = transport.request(callTool("slow", "slow"), { signal: controller.signal });
    await transport.request(callTool(1, "echo", { text: "the slow request has been written" }));
    const reason = new Error("the user gave up");
    controller.abort(reason);
    await expect(slow).rejects.toBe(reason);
    expect(await stderr.next((line) => line.startsWith("aborted"))).toBe(
      'aborted "slow": request cancelled by the client: the user gave up',
    );
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    expect(textOf(await transport.request(callTool(2, "echo", { text: "still fine" })))).toBe("still fine");
  });

  it("rejects at once, sending nothing, when the signal is already aborted", async (context) => {
    const transport = connect(context);
    const reason = new Error("too late");
    await expect(
      transport.request(callTool(1, "echo", { text: "x" }), { signal: AbortSignal.abort(reason) }),
    ).rejects.toBe(reason);
    expect(transport.pid).toBeUndefined();
  });

  it("leaves no abort listener behind once a request is answered", async (context) => {
    const transport = connect(context);
    const controller = new AbortController();
    await transport.request(callTool(1, "echo", { text: "x" }), { signal: controller.signal });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("routes progress to the request whose _meta carried the token, and the rest to the transport", async (context) => {
    const transport = connect(context);
    const atTransport: JSONRPCNotification[] = [];
    transport.onNotification = (notification) => atTransport.push(notification);
    const a: JSONRPCNotification[] = [];
    const b: JSONRPCNotification[] = [];
    await Promise.all([
      transport.request(callTool("a", "progress", { steps: 2 }, { progressToken: "tok-a" }), {
        onNotification: (notification) => a.push(notification),
      }),
      transport.request(
        callTool(
          "b",
          "progress",
          { steps: 3 },
          { progressToken: 7, "io.modelcontextprotocol/logLevel": "info" },
        ),
        { onNotification: (notification) => b.push(notification) },
      ),
    ]);
    expect(a.map((n) => n.params)).toEqual([
      { progressToken: "tok-a", progress: 1, total: 2 },
      { progressToken: "tok-a", progress: 2, total: 2 },
    ]);
    expect(b.map((n) => n.params?.progress)).toEqual([1, 2, 3]);
    expect(b.every((n) => n.params?.progressToken === 7)).toBe(true);
    expect(atTransport).toEqual([
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: { steps: 3 } } },
    ]);
  });

  it("routes a request's progress to the transport when the request has no onNotification", async (context) => {
    const transport = connect(context);
    const atTransport: JSONRPCNotification[] = [];
    transport.onNotification = (notification) => atTransport.push(notification);
    await transport.request(callTool(1, "progress", { steps: 1 }, { progressToken: "t" }));
    expect(atTransport.map((n) => n.method)).toEqual(["notifications/progress"]);
  });

  it("routes listen notifications by subscription id to the listen request, and ends it on abort", async (context) => {
    const transport = connect(context);
    const atTransport: JSONRPCNotification[] = [];
    transport.onNotification = (notification) => atTransport.push(notification);
    const onListen: JSONRPCNotification[] = [];
    const onCall: JSONRPCNotification[] = [];
    let acknowledged!: () => void;
    const ack = new Promise<void>((resolve) => (acknowledged = resolve));
    let changed!: () => void;
    const change = new Promise<void>((resolve) => (changed = resolve));
    const controller = new AbortController();
    const listen = transport.request(listenTools("sub-1"), {
      signal: controller.signal,
      onNotification: (notification) => {
        onListen.push(notification);
        if (notification.method === "notifications/subscriptions/acknowledged") acknowledged();
        if (notification.method === "notifications/tools/list_changed") changed();
      },
    });
    await ack;
    await transport.request(callTool(1, "list-changed"), { onNotification: (n) => onCall.push(n) });
    await change;
    expect(onListen.map((n) => n.method)).toEqual([
      "notifications/subscriptions/acknowledged",
      "notifications/tools/list_changed",
    ]);
    expect(
      onListen.every(
        (n) =>
          (n.params?._meta as Record<string, unknown> | undefined)?.[
            "io.modelcontextprotocol/subscriptionId"
          ] === "sub-1",
      ),
    ).toBe(true);
    expect(onCall).toEqual([]);
    expect(atTransport).toEqual([]);
    controller.abort();
    await expect(listen).rejects.toThrow();
  });

  it("refuses a request whose id, or progress token, is already in flight", async (context) => {
    const transport = connect(context);
    const controller = new AbortController();
    const first = transport.request(callTool(1, "slow", {}, { progressToken: "p" }), {
      signal: controller.signal,
    });
    await expect(transport.request(callTool(1, "echo", { text: "x" }))).rejects.toThrow(
      new TransportError("a request with id 1 is already in flight"),
    );
    await expect(
      transport.request(callTool(2, "echo", { text: "x" }, { progressToken: "p" })),
    ).rejects.toThrow(TransportError);
    controller.abort();
    await expect(first).rejects.toThrow();
    expect(textOf(await transport.request(callTool(1, "echo", { text: "reused" })))).toBe("reused");
  });

  it("exposes the server's stderr as a stream with stderr: pipe", async (context) => {
    const transport = connect(context, { stderr: "pipe" });
    const stderr = linesOf(transport.stderr!);
    await transport.request(callTool(1, "stderr", { text: "a line on stderr" }));
    expect(await stderr.next((line) => line === "a line on stderr")).toBe("a line on stderr");
    await transport.close();
    await expect(stderr.next(() => false)).rejects.toThrow("stream ended");
  });

  it("drops the server's stderr with stderr: ignore", async (context) => {
    const transport = connect(context, { stderr: "ignore" });
    expect(transport.stderr).toBeNull();
    expect(textOf(await transport.request(callTool(1, "stderr", { text: "dropped" })))).toBe(
      "written to stderr",
    );
  });

  it("passes the server's stderr through to its own by default (stderr: inherit)", async () => {
    const marker = `inherited-${process.pid}`;
    const client = spawn(process.execPath, ["--import", "tsx", INHERIT_CLIENT, marker], { cwd: REPO_ROOT });
    const stdout = linesOf(client.stdout);
    const stderr = linesOf(client.stderr);
    const exited = new Promise<number | null>((resolve) => client.once("close", (code) => resolve(code)));
    expect(await stderr.next((line) => line === marker)).toBe(marker);
    expect(JSON.parse(await stdout.next())).toMatchObject({ id: 1, result: { resultType: "complete" } });
    expect(await exited).toBe(0);
  });

  it("reaps the server on close: its pid no longer exists, and close is idempotent", async (context) => {
    const transport = connect(context);
    await transport.start();
    const pid = transport.pid as number;
    expect(isAlive(pid)).toBe(true);
    const closing = transport.close();
    expect(transport.close()).toBe(closing);
    await closing;
    expect(isAlive(pid)).toBe(false);
    expect(transport.pid).toBeUndefined();
    await expect(transport.request(callTool(1, "echo", { text: "x" }))).rejects.toThrow(
      new TransportError("transport is closed"),
    );
    await expect(transport.start()).rejects.toThrow(TransportError);
  });

  it("closes at once, starting nothing, when the server was never started", async () => {
    const transport = new StdioClientTransport({ ...fixtureCommand(), stderr: "pipe" });
    const ended = new Promise((resolve) => transport.stderr?.once("end", resolve).resume());
    await transport.close();
    await ended;
    expect(transport.pid).toBeUndefined();
  });

  it("rejects in-flight requests when closed", async (context) => {
    const transport = connect(context);
    const slow = transport.request(callTool("slow", "slow"));
    const rejected = expect(slow).rejects.toThrow(new TransportError("transport closed"));
    await transport.request(callTool(1, "echo", { text: "x" }));
    await transport.close();
    await rejected;
  });

  it("sends SIGTERM to a server that ignores stdin EOF, and reaps it", async (context) => {
    const transport = connect(context, { stderr: "pipe", closeGracePeriodMs: 200 }, "--ignore-eof");
    const stderr = linesOf(transport.stderr!);
    await transport.request(callTool(1, "echo", { text: "ready" }));
    const pid = transport.pid as number;
    await transport.close();
    expect(stderr.all).toContain("staying alive after EOF");
    expect(stderr.all).toContain("SIGTERM received");
    expect(isAlive(pid)).toBe(false);
  });

  it("sends SIGKILL to a server that ignores stdin EOF and SIGTERM, and reaps it", async (context) => {
    const transport = connect(
      context,
      { stderr: "pipe", closeGracePeriodMs: 200, terminateGracePeriodMs: 200 },
      "--ignore-eof",
      "--ignore-sigterm",
    );
    const stderr = linesOf(transport.stderr!);
    await transport.request(callTool(1, "echo", { text: "ready" }));
    const pid = transport.pid as number;
    await transport.close();
    expect(stderr.all).toContain("SIGTERM ignored");
    expect(isAlive(pid)).toBe(false);
  });

  it("rejects in-flight requests with the exit code when the server dies, and restarts it on the next request", async (context) => {
    const transport = connect(context, { stderr: "pipe" });
    transport.stderr?.resume();
    const pipeListeners = () =>
      ["unpipe", "drain", "error", "close", "finish"].reduce(
        (sum, event) => sum + (transport.stderr?.listenerCount(event) ?? 0),
        0,
      );
    await transport.start();
    const firstPid = transport.pid;
    const listenersWhileRunning = pipeListeners();
    const slow = transport.request(callTool("slow", "slow"));
    const exit = transport.request(callTool("exit", "exit", { code: 3 }));
    for (const outcome of await Promise.allSettled([slow, exit])) {
      expect(outcome.status).toBe("rejected");
      const error = (outcome as PromiseRejectedResult).reason as unknown;
      expect(error).toBeInstanceOf(ServerProcessExitedError);
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({ name: "ServerProcessExitedError", exitCode: 3, signal: null });
      expect((error as Error).message).toContain("exited with code 3");
    }
    expect(textOf(await transport.request(callTool(1, "echo", { text: "again" })))).toBe("again");
    expect(transport.pid).not.toBe(firstPid);
    expect(pipeListeners()).toBe(listenersWhileRunning); // nothing left over from the first process
  });

  it("names the signal when the server is killed", async (context) => {
    const transport = connect(context);
    await transport.start();
    const slow = transport.request(callTool("slow", "slow"));
    await transport.request(callTool(1, "echo", { text: "x" }));
    process.kill(transport.pid as number, "SIGKILL");
    await expect(slow).rejects.toMatchObject({ exitCode: null, signal: "SIGKILL" });
    await expect(slow).rejects.toThrow("was killed by signal SIGKILL");
  });
});

describe("StdioClientTransport when the command cannot start", () => {
  it("rejects with a TransportError naming a command that does not exist", async (context) => {
    const transport = new StdioClientTransport({ command: "tsmcp-no-such-command-xyz" });
    context.onTestFinished(() => transport.close());
    const request = transport.request(callTool(1, "echo", { text: "x" }));
    await expect(request).rejects.toThrow(TransportError);
    await expect(request).rejects.toThrow('command "tsmcp-no-such-command-xyz" was not found');
    await expect(transport.start()).rejects.toThrow("tsmcp-no-such-command-xyz");
    await transport.close();
  });

  it("mentions the working directory when it may be the cause", async (context) => {
    const transport = new StdioClientTransport({ command: process.execPath, cwd: "/no/such/dir/tsmcp" });
    context.onTestFinished(() => transport.close());
    await expect(transport.start()).rejects.toThrow('working directory "/no/such/dir/tsmcp"');
  });
});

describe("StdioClientTransport with a scripted server", () => {
  it("reports garbage lines and id-less errors to onError, answers a server request -32601, and keeps going", async (context) => {
    const { transport, errors } = connectScripted(context);
    const response = await transport.request(
      script(1, [
        "not json at all",
        { jsonrpc: "2.0", error: { code: -32700, message: "Parse error: Invalid JSON" } },
        { jsonrpc: "2.0", id: 5, method: "sampling/createMessage", params: {} },
      ]),
    );
    expect(response).toEqual({ jsonrpc: "2.0", id: 1, result: { resultType: "complete" } });
    expect(errors.map((error) => error.message)).toEqual([
      "the MCP server sent an invalid message: Parse error: Invalid JSON",
      "Parse error: Invalid JSON",
    ]);
  });

  it("reports an over-long line and still reads the next one", async (context) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SCRIPTED_SERVER],
      maxLineBytes: 100,
    });
    context.onTestFinished(() => transport.close());
    const errors: Error[] = [];
    transport.onError = (error) => errors.push(error);
    const response = await transport.request(script(1, [{ padding: "x".repeat(200) }]));
    expect(response).toMatchObject({ id: 1 });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toContain("100 bytes");
  });

  it("gives the server only the inherited variables plus the env it was given", async (context) => {
    process.env.TSMCP_STDIO_TEST_SECRET = "must not leak";
    context.onTestFinished(() => {
      delete process.env.TSMCP_STDIO_TEST_SECRET;
    });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SCRIPTED_SERVER],
      env: { MCP_API_KEY: "given" },
    });
    context.onTestFinished(() => transport.close());
    const response = await transport.request({ jsonrpc: "2.0", id: 1, method: "env" });
    const env = (response as unknown as { result: { env: Record<string, string> } }).result.env;
    expect(env.MCP_API_KEY).toBe("given");
    expect(env.PATH).toBe(process.env.PATH);
    expect(env).not.toHaveProperty("TSMCP_STDIO_TEST_SECRET");
  });

  it("ignores a response for an id that is not in flight", async (context) => {
    const { transport, errors } = connectScripted(context);
    const response = await transport.request(
      script(1, [{ jsonrpc: "2.0", id: 999, result: { resultType: "complete" } }]),
    );
    expect(response).toMatchObject({ id: 1 });
    expect(errors).toEqual([]);
  });

  it("writes the cancellation it sends as notifications/cancelled with requestId and reason", async (context) => {
    const { transport } = connectScripted(context);
    const received: JSONRPCNotification[] = [];
    let got!: () => void;
    const gotOne = new Promise<void>((resolve) => (got = resolve));
    transport.onNotification = (notification) => {
      received.push(notification);
      got();
    };
    const controller = new AbortController();
    const hanging = transport.request(
      { jsonrpc: "2.0", id: "h", method: "hang" },
      { signal: controller.signal },
    );
    await transport.request(script(1, []));
    controller.abort("no longer needed");
    await expect(hanging).rejects.toBe("no longer needed");
    await gotOne;
    expect(received).toEqual([
      {
        jsonrpc: "2.0",
        method: "received",
        params: {
          message: {
            jsonrpc: "2.0",
            method: "notifications/cancelled",
            params: { requestId: "h", reason: "no longer needed" },
          },
        },
      },
    ]);
  });

  it("sends a notification with notify()", async (context) => {
    const { transport } = connectScripted(context);
    const received = new Promise<JSONRPCNotification>((resolve) => (transport.onNotification = resolve));
    await transport.notify({ jsonrpc: "2.0", method: "notifications/hello", params: { a: 1 } });
    expect((await received).params).toEqual({
      message: { jsonrpc: "2.0", method: "notifications/hello", params: { a: 1 } },
    });
    await expect(transport.notify({ jsonrpc: "2.0", id: 1, method: "x" } as never)).rejects.toThrow(
      TypeError,
    );
  });

  it("ends a request the server cancels (a listen stream it tears down), after delivering the notification", async (context) => {
    const { transport } = connectScripted(context);
    const delivered: JSONRPCNotification[] = [];
    const hanging = transport.request(
      { jsonrpc: "2.0", id: 42, method: "hang" },
      { onNotification: (notification) => delivered.push(notification) },
    );
    const rejected = expect(hanging).rejects.toThrow(
      new TransportError("the MCP server cancelled request 42: shutting down"),
    );
    await transport.request(
      script(1, [
        {
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: 42, reason: "shutting down" },
        },
      ]),
    );
    await rejected;
    expect(delivered.map((n) => n.method)).toEqual(["notifications/cancelled"]);
  });

  it("survives a notification handler that throws, reporting it to onError", async (context) => {
    const { transport, errors } = connectScripted(context);
    transport.onNotification = () => {
      throw new Error("handler bug");
    };
    await transport.request(script(1, [{ jsonrpc: "2.0", method: "notifications/message", params: {} }]));
    expect(textOfError(errors[0])).toBe("a notification handler threw: handler bug");
    expect(await transport.request(script(2, []))).toMatchObject({ id: 2 });
  });
});

function textOfError(error: Error | undefined): string {
  return `${error?.message}: ${(error?.cause as Error | undefined)?.message}`;
}
