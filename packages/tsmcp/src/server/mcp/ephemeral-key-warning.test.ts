/**
 * An `MCPServer` on a process-local requestState key (the default, or an explicit
 * `RequestStateSecurity.ephemeral()`) warns once when it is first served
 * over HTTP (a restart or another instance refuses pending tokens with the frozen -32602), and
 * never with explicit keys or when it is not served over HTTP.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { serve } from "../../transport/http/node/node.js";
import { createHttpHandler } from "../../transport/http/server/server-handler.js";
import { RequestStateSecurity } from "../state/policy.js";
import { recordingLogger } from "./mcp-test-fixtures.js";
import { MCPServer } from "./server.js";

function warningsOf(logger: ReturnType<typeof recordingLogger>) {
  return logger.records.filter((record) => record.level === "warn");
}

describe("the process-local requestState key warning", () => {
  it("is logged exactly once however many HTTP handlers serve the server", async () => {
    const logger = recordingLogger();
    const mcp = new MCPServer("warned", { logger });
    expect(warningsOf(logger)).toEqual([]);
    const handler = mcp.httpHandler();
    const second = createHttpHandler(mcp);
    const handle = await serve(mcp, { host: "127.0.0.1", port: 0 });
    try {
      const warnings = warningsOf(logger);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.message).toContain("process-local key");
      expect(warnings[0]?.message).toContain("new RequestStateSecurity({ keys })");
    } finally {
      await handle.close();
      handler.close();
      second.close();
    }
  });

  it("is logged when the server is first served with serve()", async () => {
    const logger = recordingLogger();
    const handle = await serve(new MCPServer("served", { logger }), { host: "127.0.0.1", port: 0 });
    await handle.close();
    expect(warningsOf(logger)).toHaveLength(1);
  });

  it("is logged once for an explicit RequestStateSecurity.ephemeral(), as ephemeral as the default", async () => {
    const logger = recordingLogger();
    const requestStateSecurity = RequestStateSecurity.ephemeral({ ttlMs: 60_000 });
    const mcp = new MCPServer("explicit", { logger, requestStateSecurity });
    const handler = mcp.httpHandler();
    const handle = await serve(mcp, { host: "127.0.0.1", port: 0 });
    await handle.close();
    handler.close();
    const warnings = warningsOf(logger);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain("process-local key");
  });

  it("is not logged with explicit keys", async () => {
    const logger = recordingLogger();
    const requestStateSecurity = new RequestStateSecurity({ keys: [randomBytes(32)] });
    const mcp = new MCPServer("shared", { logger, requestStateSecurity });
    const handler = mcp.httpHandler();
    const handle = await serve(mcp, { host: "127.0.0.1", port: 0 });
    await handle.close();
    handler.close();
    expect(logger.records).toEqual([]);
  });
});
