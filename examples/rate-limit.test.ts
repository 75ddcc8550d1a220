/**
 * The rate-limit example over Streamable HTTP on 127.0.0.1 with bearer tokens and a stepped clock:
 * the budget a tool reads, the error over the limit (code, data, HTTP status), principals counted
 * apart, a new window; and `npm run example -- rate-limit` as written.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "tsmcp/client";
import { serve } from "tsmcp/node";
import { bearerAuth } from "tsmcp/server";
import { McpError } from "tsmcp/types";
import { describe, expect, it, onTestFinished } from "vitest";
import { warningOfProcessLocalKey } from "../test/helpers/logs.js";
import { modern, post } from "../test/helpers/mcp-post.js";
import { staticBearer, staticTokens } from "./docs/auth.js";
import { createRateLimitedServer, RATE_LIMITED, rateLimit, TOKENS } from "./rate-limit.js";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The example server behind bearer tokens, limit 2 per 60 s on a clock the test steps. */
async function served() {
  const clock = { nowMs: 1_000_000 };
  const mcp = createRateLimitedServer({ limit: 2, windowMs: 60_000, now: () => clock.nowMs });
  const handle = await warningOfProcessLocalKey(() =>
    serve(mcp, { port: 0, authenticate: bearerAuth({ verifier: staticTokens(TOKENS) }) }),
  );
  onTestFinished(async () => {
    await handle.close();
    mcp.close();
  });
  const connect = async (token: string) => {
    const client = await Client.connect(handle.url, { auth: staticBearer(token) });
    onTestFinished(() => client.close());
    return client;
  };
  return { clock, url: handle.url, connect };
}

const text = (result: { content: { type: string; text?: string }[] }) => result.content[0]?.text;

describe("the rate-limit example", () => {
  it("lets a tool read the caller's remaining budget, then refuses with the error and when to retry", async () => {
    const { clock, connect } = await served();
    const alice = await connect("alice-token");
    expect(text(await alice.callTool("quota"))).toBe("alice has 1 calls left");
    clock.nowMs += 15_000;
    expect(text(await alice.callTool("quota"))).toBe("alice has 0 calls left");
    clock.nowMs += 5_000;
    const refused = await alice.callTool("quota").then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(McpError);
    expect(refused).toMatchObject({
      code: RATE_LIMITED,
      message: "Rate limit exceeded",
      data: { retryAfterMs: 40_000, limit: 2, windowMs: 60_000 },
    });
  });

  it("counts each principal apart and gives a whole budget in the next window", async () => {
    const { clock, connect } = await served();
    const alice = await connect("alice-token");
    const bob = await connect("bob-token");
    await alice.callTool("quota");
    await alice.callTool("quota");
    await expect(alice.callTool("quota")).rejects.toMatchObject({ code: RATE_LIMITED });
    expect(text(await bob.callTool("quota"))).toBe("bob has 1 calls left");
    clock.nowMs += 60_000;
    expect(text(await alice.callTool("quota"))).toBe("alice has 1 calls left");
  });

  it("answers over the limit with a JSON-RPC error in an HTTP 200, and leaves other methods uncounted", async () => {
    const { url } = await served();
    for (let i = 0; i < 3; i++) {
      expect((await post(url, modern("tools/list"), "alice-token")).status).toBe(200);
    }
    await post(url, modern("tools/call", { name: "quota" }), "alice-token");
    await post(url, modern("tools/call", { name: "quota" }), "alice-token");
    const over = await post(url, modern("tools/call", { name: "quota" }), "alice-token");
    expect(over.status).toBe(200);
    expect(over.body.error).toEqual({
      code: RATE_LIMITED,
      message: "Rate limit exceeded",
      data: { retryAfterMs: 60_000, limit: 2, windowMs: 60_000 },
    });
  });

  it("refuses options that are not positive integers", () => {
    expect(() => rateLimit({ limit: 0, windowMs: 1000 })).toThrow(RangeError);
    expect(() => rateLimit({ limit: 1, windowMs: 0.5 })).toThrow(RangeError);
  });

  it("runs as written", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "examples/run.ts", "rate-limit"],
      { cwd: root },
    );
    expect(stdout.trim().split("\n")).toEqual([
      "alice has 1 calls left",
      "alice has 0 calls left",
      `alice refused: ${RATE_LIMITED} Rate limit exceeded (retry within 60 s)`,
      "bob has 1 calls left",
    ]);
  });
});
