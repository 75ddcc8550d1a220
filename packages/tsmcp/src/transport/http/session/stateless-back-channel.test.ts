/**
 * The web handler serving handshake-era clients without sessions (`legacy: "stateless"`, the
 * default on Cloudflare Workers), through a real server on 127.0.0.1: a tool that would ask the
 * client something over the back-channel answers a protocol error naming the limitation and the
 * ways around it, never a tool result; and the handler picks that mode by itself where the
 * runtime says it is Cloudflare Workers. Spec (2025-11-25): basic/transports, client/elicitation.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import * as z from "zod";
import { silentLogger } from "../../../protocol/logger.js";
import { MCPServer } from "../../../server/mcp/server.js";
import { elicit } from "../../../server/resolve/elicit.js";
import { resolver } from "../../../server/resolve/resolver.js";
import { post } from "../http-test-fixtures.js";
import {
  initializeRequest,
  legacyHeaders,
  legacyRequest,
  type Served,
  webFrontEnd,
} from "./session-test-fixtures.js";

/** A server whose `provision` asks through a resolver and `confirm` through `ctx.elicit`. */
function askingServer(): { mcp: MCPServer; ran: string[] } {
  const ran: string[] = [];
  const mcp = new MCPServer("asking", { logger: silentLogger });
  const region = resolver("region", () => elicit("Which region?", z.object({ region: z.string() })));
  mcp.tool("provision", { resolve: { region } }, async (_args, ctx) => {
    ran.push("provision");
    return `in ${ctx.resolved.region.region}`;
  });
  mcp.tool("confirm", {}, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: "Sure?",
      requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
    });
    ran.push("confirm");
    return answer.action;
  });
  return { mcp, ran };
}

let served: Served | undefined;

afterEach(async () => {
  vi.unstubAllGlobals();
  await served?.close();
  served = undefined;
});

describe('the web handler with legacy: "stateless"', () => {
  it.each(["provision", "confirm"])(
    "answers a handshake-era call of %s, which asks the client, with -32600 naming the limitation, not a tool result",
    async (tool) => {
      const { mcp, ran } = askingServer();
      served = await webFrontEnd(mcp, { legacy: "stateless" });
      const init = await post(served.url, initializeRequest(), legacyHeaders(undefined, ""));
      expect(init.status).toBe(200);
      const call = await post(
        served.url,
        legacyRequest(2, "tools/call", { name: tool, arguments: {} }),
        legacyHeaders(),
      );
      const body = (await call.json()) as {
        id: number;
        result?: unknown;
        error?: { code: number; message: string };
      };
      expect(body.result).toBeUndefined();
      expect(body.id).toBe(2);
      expect(body.error?.code).toBe(-32600);
      expect(body.error?.message).toMatch(/^Cannot send 'elicitation\/create' to the client: /);
      expect(body.error?.message).toContain('legacy: "stateless"');
      expect(body.error?.message).toContain("Cloudflare Workers");
      expect(body.error?.message).toContain("2026-07-28");
      expect(body.error?.message).toContain('legacy: "session" on Node.js');
      expect(ran).toEqual([]);
    },
  );
});

describe("the web handler on Cloudflare Workers", () => {
  it("serves handshake-era clients without sessions unless told otherwise", async () => {
    vi.stubGlobal("navigator", { userAgent: "Cloudflare-Workers" });
    served = await webFrontEnd(askingServer().mcp);
    const init = await post(served.url, initializeRequest(), legacyHeaders(undefined, ""));
    expect(init.status).toBe(200);
    expect(init.headers.get("mcp-session-id")).toBeNull();
    const call = await post(
      served.url,
      legacyRequest(2, "tools/call", { name: "provision", arguments: {} }),
      legacyHeaders(),
    );
    expect(((await call.json()) as { error?: { code: number } }).error?.code).toBe(-32600);
  });

  it('keeps sessions when legacy: "session" is given', async () => {
    vi.stubGlobal("navigator", { userAgent: "Cloudflare-Workers" });
    served = await webFrontEnd(askingServer().mcp, { legacy: "session" });
    const init = await post(served.url, initializeRequest(), legacyHeaders(undefined, ""));
    expect(init.headers.get("mcp-session-id")).not.toBeNull();
  });

  it("keeps sessions by default on other runtimes", async () => {
    vi.stubGlobal("navigator", { userAgent: "Node.js/20" });
    served = await webFrontEnd(askingServer().mcp);
    const init = await post(served.url, initializeRequest(), legacyHeaders(undefined, ""));
    expect(init.headers.get("mcp-session-id")).not.toBeNull();
  });
});
