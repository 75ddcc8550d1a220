/**
 * `tsmcp` with a token the server refuses (stale, rotated or revoked), over real HTTP on
 * 127.0.0.1: a server behind `bearerAuth` and the real `tsmcp` process given the token with
 * `--header`. The command names the challenge's `error` and `error_description`, and says what to
 * do, rather than a bare HTTP status.
 */

import { serve } from "tsmcp/node";
import { bearerAuth, InvalidTokenError, MCPServer } from "tsmcp/server";
import { silentLogger } from "tsmcp/types";
import { describe, expect, it, onTestFinished } from "vitest";
import { tsmcp } from "./run-cli.js";

/** A server that refuses every token as revoked. */
async function refusingServer(): Promise<string> {
  const mcp = new MCPServer("notes", { logger: silentLogger });
  mcp.tool("whoami", {}, (_args, ctx) => `${ctx.auth?.subject}`);
  const verifier = {
    async verify(): Promise<never> {
      throw new InvalidTokenError("revoked");
    },
  };
  const handle = await serve(mcp, { port: 0, authenticate: bearerAuth({ verifier }) });
  onTestFinished(() => handle.close());
  return handle.url.href;
}

describe("tsmcp with a refused token", () => {
  it("names invalid_token and the server's description, and says to sign in again", async () => {
    const url = await refusingServer();
    const run = await tsmcp(["--header", "authorization: Bearer stale-token", "tools", url]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("invalid_token (The access token is invalid or expired)");
    expect(run.stderr).toContain("tsmcp login");
    expect(run.stderr).not.toContain("without a JSON-RPC error");
  });

  it("puts the challenge's error and description in the --json error", async () => {
    const url = await refusingServer();
    const run = await tsmcp(["--json", "--header", "authorization: Bearer stale-token", "tools", url]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      error: {
        code: "AuthorizationRefusedError",
        data: {
          status: 401,
          error: "invalid_token",
          error_description: "The access token is invalid or expired",
        },
      },
    });
  });
});
