/**
 * Version and framing rules at the dual-era endpoint, through real servers on 127.0.0.1: an
 * `MCP-Protocol-Version` naming a revision nobody serves gets -32022 whatever era it belongs to, a
 * header that disagrees with the body's `_meta` revision gets -32020, and a malformed notification
 * or a request method without an id gets HTTP 400 with -32600 without being dispatched, in both
 * eras. Spec: basic/transports/streamable-http §Request Metadata, §Server Validation, §Sending
 * Messages to the Server; basic/versioning; 2025-11-25 basic/transports.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { JSONRPCNotification, JSONRPCRequest } from "../../../protocol/jsonrpc.js";
import { silentLogger } from "../../../protocol/logger.js";
import { MCPServer } from "../../../server/mcp/server.js";
import type { Dispatcher } from "../../dispatcher.js";
import { baseHeaders, META, post, rpc } from "../http-test-fixtures.js";
import {
  type FrontEnd,
  initialize,
  legacyHeaders,
  legacyRequest,
  nodeFrontEnd,
  type Served,
  webFrontEnd,
} from "../session/session-test-fixtures.js";

/** An `MCPServer` with a `count` tool, wrapped to record every message it is handed. */
function recordingServer() {
  const handled: (JSONRPCRequest | JSONRPCNotification)[] = [];
  let toolRuns = 0;
  const mcp = new MCPServer("framing", { logger: silentLogger });
  mcp.tool("count", {}, async () => {
    toolRuns += 1;
    return `run ${toolRuns}`;
  });
  const dispatcher: Dispatcher = {
    supportedVersions: mcp.supportedVersions,
    handle(message, env) {
      handled.push(message);
      return mcp.handle(message, env);
    },
  };
  return { dispatcher, handled, toolRuns: () => toolRuns };
}

async function errorOf(response: Response) {
  expect(response.headers.get("content-type")).toBe("application/json");
  return (await response.json()) as {
    id?: unknown;
    error: { code: number; message: string; data?: unknown };
  };
}

const BAD_CANCEL = {
  jsonrpc: "2.0",
  method: "notifications/cancelled",
  params: { requestId: { bad: true } },
};
const CALL_WITHOUT_ID = { jsonrpc: "2.0", method: "tools/call", params: { name: "count", arguments: {} } };

describe.each([
  { name: "the web handler", start: webFrontEnd as FrontEnd },
  { name: "the Node adapter", start: nodeFrontEnd as FrontEnd },
])("version and framing rules through $name", ({ start }) => {
  let served: Served;
  let server: ReturnType<typeof recordingServer>;

  beforeEach(async () => {
    server = recordingServer();
    served = await start(server.dispatcher);
  });

  afterEach(async () => {
    await served.close();
  });

  describe("an MCP-Protocol-Version header naming a revision the endpoint does not serve", () => {
    it("gets 400 and -32022 listing the served revisions when it names an old handshake revision", async () => {
      const response = await post(
        served.url,
        legacyRequest(1, "tools/list"),
        legacyHeaders(undefined, "2024-11-05"),
      );
      expect(response.status).toBe(400);
      const body = await errorOf(response);
      expect(body.id).toBe(1);
      expect(body.error.code).toBe(-32022);
      expect(body.error.data).toEqual({
        supported: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"],
        requested: "2024-11-05",
      });
      expect(server.handled).toEqual([]);
    });

    it("gets 400 and -32022 on a 2026-07-28 body too", async () => {
      const response = await post(served.url, rpc(2, "tools/list"), {
        ...baseHeaders("tools/list"),
        "MCP-Protocol-Version": "2024-11-05",
      });
      expect(response.status).toBe(400);
      expect((await errorOf(response)).error).toMatchObject({
        code: -32022,
        data: { requested: "2024-11-05" },
      });
    });

    it("gets 400 and -32022 on a session as well", async () => {
      const sessionId = await initialize(served.url);
      const response = await post(
        served.url,
        legacyRequest(3, "tools/list"),
        legacyHeaders(sessionId, "2024-11-05"),
      );
      expect(response.status).toBe(400);
      expect((await errorOf(response)).error.code).toBe(-32022);
    });
  });

  describe("a header that disagrees with the body's _meta revision", () => {
    it("gets 400 and -32020 when a 2025-11-25 header carries a 2026-07-28 body", async () => {
      const response = await post(served.url, rpc(4, "tools/list"), {
        ...baseHeaders("tools/list"),
        "MCP-Protocol-Version": "2025-11-25",
      });
      expect(response.status).toBe(400);
      const body = await errorOf(response);
      expect(body.id).toBe(4);
      expect(body.error.code).toBe(-32020);
      expect(body.error.data).toEqual({
        header: "MCP-Protocol-Version",
        headerValue: "2025-11-25",
        bodyValue: "2026-07-28",
      });
      expect(server.handled).toEqual([]);
    });

    it("gets 400 and -32020 on a session too", async () => {
      const sessionId = await initialize(served.url);
      const response = await post(served.url, rpc(5, "tools/list"), legacyHeaders(sessionId));
      expect(response.status).toBe(400);
      expect((await errorOf(response)).error.code).toBe(-32020);
    });
  });

  describe("at 2026-07-28", () => {
    const notificationHeaders = { ...baseHeaders("notifications/cancelled") };

    it("answers a notifications/cancelled with a malformed requestId 400 and -32600, without dispatching it", async () => {
      const response = await post(
        served.url,
        { ...BAD_CANCEL, params: { ...BAD_CANCEL.params, _meta: META } },
        notificationHeaders,
      );
      expect(response.status).toBe(400);
      const body = await errorOf(response);
      expect(body.error.code).toBe(-32600);
      expect(body.error.message).toMatch(/notifications\/cancelled.*requestId/);
      expect(body).not.toHaveProperty("id");
      expect(server.handled).toEqual([]);
    });

    it("answers a tools/call without an id 400 and -32600, and the tool does not run", async () => {
      const response = await post(
        served.url,
        { ...CALL_WITHOUT_ID, params: { ...CALL_WITHOUT_ID.params, _meta: META } },
        { ...baseHeaders("tools/call"), "Mcp-Name": "count" },
      );
      expect(response.status).toBe(400);
      const body = await errorOf(response);
      expect(body.error.code).toBe(-32600);
      expect(body.error.message).toContain("'tools/call' is a request");
      expect(server.handled).toEqual([]);
      expect(server.toolRuns()).toBe(0);
    });

    it("still answers a well-formed notification 202", async () => {
      const response = await post(
        served.url,
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9, _meta: META } },
        notificationHeaders,
      );
      expect(response.status).toBe(202);
      expect(await response.text()).toBe("");
    });
  });

  describe("on a handshake-era session", () => {
    let sessionId: string;

    beforeEach(async () => {
      sessionId = await initialize(served.url);
      server.handled.length = 0;
    });

    it("answers a notifications/cancelled with a malformed requestId 400 and -32600, without dispatching it", async () => {
      const response = await post(served.url, BAD_CANCEL, legacyHeaders(sessionId));
      expect(response.status).toBe(400);
      expect((await errorOf(response)).error.code).toBe(-32600);
      expect(server.handled).toEqual([]);
    });

    it("answers a tools/call without an id 400 and -32600, and the tool does not run", async () => {
      const response = await post(served.url, CALL_WITHOUT_ID, legacyHeaders(sessionId));
      expect(response.status).toBe(400);
      expect((await errorOf(response)).error.code).toBe(-32600);
      expect(server.handled).toEqual([]);
      expect(server.toolRuns()).toBe(0);
    });

    it("accepts a notifications/cancelled without a requestId, which 2025-11-25 allows", async () => {
      const response = await post(
        served.url,
        { jsonrpc: "2.0", method: "notifications/cancelled", params: {} },
        legacyHeaders(sessionId),
      );
      expect(response.status).toBe(202);
    });
  });
});

describe('version and framing rules with legacy: "stateless"', () => {
  let served: Served;
  let server: ReturnType<typeof recordingServer>;

  beforeEach(async () => {
    server = recordingServer();
    served = await webFrontEnd(server.dispatcher, { legacy: "stateless" });
  });

  afterEach(async () => {
    await served.close();
  });

  it("answers a malformed notification and a request method without an id 400 and -32600", async () => {
    for (const message of [BAD_CANCEL, CALL_WITHOUT_ID]) {
      const response = await post(served.url, message, legacyHeaders());
      expect(response.status).toBe(400);
      expect((await errorOf(response)).error.code).toBe(-32600);
    }
    expect(server.handled).toEqual([]);
    expect(server.toolRuns()).toBe(0);
  });

  it("answers a header naming an old handshake revision 400 and -32022", async () => {
    const response = await post(
      served.url,
      legacyRequest(1, "tools/list"),
      legacyHeaders(undefined, "2024-11-05"),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).error.code).toBe(-32022);
  });
});

describe('version rules with legacy: "reject"', () => {
  let served: Served;

  beforeEach(async () => {
    served = await webFrontEnd(recordingServer().dispatcher, { legacy: "reject" });
  });

  afterEach(async () => {
    await served.close();
  });

  it("lists only the 2026 revisions in -32022, as server/discover does", async () => {
    const response = await post(
      served.url,
      legacyRequest(1, "tools/list"),
      legacyHeaders(undefined, "2024-11-05"),
    );
    expect(response.status).toBe(400);
    expect((await errorOf(response)).error.data).toEqual({
      supported: ["2026-07-28"],
      requested: "2024-11-05",
    });
  });
});
