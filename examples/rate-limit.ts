/**
 * A per-principal rate limit as `MCPServer` middleware: each authenticated caller (bearer tokens,
 * checked by a `TokenVerifier`) gets `limit` tool calls per fixed window of `windowMs`. Over the
 * limit a call is answered with the JSON-RPC error {@link RATE_LIMITED} and `data.retryAfterMs`,
 * before any handler runs; under it, the middleware provides the caller's remaining budget as a
 * typed request value that the `quota` tool reads. The clock is injected, so tests step it.
 *
 * Run it: `npm run example -- rate-limit`.
 */
import { Client } from "tsmcp/client";
import { serve } from "tsmcp/node";
import { authenticatedPrincipal, bearerAuth, contextKey, MCPServer, type Middleware } from "tsmcp/server";
import { McpError } from "tsmcp/types";
import { staticBearer, staticTokens } from "./docs/auth.js";

/**
 * The code of the rate-limit error: application-defined. MCP defines no rate-limit code, keeps
 * -32000..-32099 for implementations and the spec, and asks applications to stay outside
 * -32768..-32000; such a code is answered HTTP 200 over Streamable HTTP (a well-formed JSON-RPC
 * error any client can read, `data` included).
 */
export const RATE_LIMITED = -31429;

/** What a caller has left in the current window. */
export interface Budget {
  /** Tool calls still allowed in this window, this one not counted. */
  readonly remaining: number;
  /** When the window ends and the budget is whole again, epoch milliseconds. */
  readonly resetAtMs: number;
}

/** The request value the rate limit provides: the caller's budget after this call. */
export const budget = contextKey<Budget>("budget");

/** Options of {@link rateLimit}. */
export interface RateLimitOptions {
  /** Tool calls one principal may make per window; a positive integer. */
  readonly limit: number;
  /** The window's length, milliseconds; a positive integer. */
  readonly windowMs: number;
  /** The clock, epoch milliseconds. Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * A middleware allowing each principal (`authenticatedPrincipal`: client, issuer, subject of the
 * verified token; "anonymous" without auth) `limit` `tools/call` requests per fixed window. Over
 * it: McpError {@link RATE_LIMITED} "Rate limit exceeded" with `data: { retryAfterMs, limit,
 * windowMs }`. Other methods pass uncounted. Windows live in this process's memory.
 *
 * @throws RangeError when `limit` or `windowMs` is not a positive integer.
 */
export function rateLimit(options: RateLimitOptions): Middleware {
  const { limit, windowMs, now = Date.now } = options;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError("limit must be a positive integer");
  if (!Number.isSafeInteger(windowMs) || windowMs < 1) {
    throw new RangeError("windowMs must be a positive integer of milliseconds");
  }
  const windows = new Map<string, { startMs: number; used: number }>();
  return async (request, next) => {
    if (request.method !== "tools/call") return next(request);
    const principal = authenticatedPrincipal(request.context) ?? "anonymous";
    const at = now();
    let window = windows.get(principal);
    if (window === undefined || at >= window.startMs + windowMs) {
      window = { startMs: at, used: 0 };
      windows.set(principal, window);
    }
    const resetAtMs = window.startMs + windowMs;
    if (window.used >= limit) {
      throw new McpError(RATE_LIMITED, "Rate limit exceeded", {
        retryAfterMs: resetAtMs - at,
        limit,
        windowMs,
      });
    }
    window.used += 1;
    return next(request.with(budget, { remaining: limit - window.used, resetAtMs }));
  };
}

/** The API tokens of the example: token -> who it speaks for. */
export const TOKENS = {
  "alice-token": { subject: "alice", scopes: [] },
  "bob-token": { subject: "bob", scopes: [] },
};

/** A server with the rate limit in front of `quota`, which tells the caller what is left. */
export function createRateLimitedServer(options: RateLimitOptions): MCPServer {
  const mcp = new MCPServer("metered", { version: "1.0.0" });
  mcp.use(rateLimit(options));
  mcp.tool("quota", { description: "Says how many calls are left." }, (_args, ctx) => {
    const { remaining } = ctx.get(budget); // typed Budget: no cast
    return `${ctx.auth?.subject} has ${remaining} calls left`;
  });
  return mcp;
}

/** Serves the server behind bearer tokens, then alice calls three times (limit 2) and bob once. */
export async function main(): Promise<void> {
  const mcp = createRateLimitedServer({ limit: 2, windowMs: 60_000 });
  const handle = await serve(mcp, { authenticate: bearerAuth({ verifier: staticTokens(TOKENS) }) });
  const alice = await Client.connect(handle.url, { auth: staticBearer("alice-token") });
  const bob = await Client.connect(handle.url, { auth: staticBearer("bob-token") });
  try {
    for (let call = 1; call <= 3; call++) {
      try {
        const result = await alice.callTool("quota");
        console.log(result.content[0]?.type === "text" ? result.content[0].text : "");
      } catch (error) {
        if (!(error instanceof McpError) || error.code !== RATE_LIMITED) throw error;
        const { retryAfterMs } = error.data as { retryAfterMs: number };
        console.log(
          `alice refused: ${error.code} ${error.message} (retry within ${Math.ceil(retryAfterMs / 1000)} s)`,
        );
      }
    }
    const result = await bob.callTool("quota");
    console.log(result.content[0]?.type === "text" ? result.content[0].text : "");
  } finally {
    await alice.close();
    await bob.close();
    await handle.close();
    mcp.close();
  }
}
