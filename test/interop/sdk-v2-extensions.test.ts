/**
 * The official 2.4.0 client (`@modelcontextprotocol/client`) against a tsmcp `MCPServer` serving
 * the made-up `com.example/audit` extension on 127.0.0.1: it reads the extension in the server's
 * capabilities, and calls the extension's method with its custom-request API, in both eras.
 */
import { Client as ClientV2, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { audit, auditServer, ENTRIES } from "../../packages/tsmcp/src/client/fixtures/audit-extension.js";
import { type HttpServerHandle, serve } from "../../packages/tsmcp/src/node/index.js";

let server: HttpServerHandle;
beforeAll(async () => {
  server = await serve(auditServer(), { host: "127.0.0.1", port: 0 });
});
afterAll(async () => {
  await server?.close();
});

describe.each([
  ["on its default settings (2025-11-25)", {}],
  ["with versionNegotiation auto (2026-07-28)", { versionNegotiation: { mode: "auto" as const } }],
])("the official 2.4.0 client %s", (_name, options) => {
  it("sees the extension in the server's capabilities and calls its method", async () => {
    const client = new ClientV2({ name: "interop-v2", version: "1.0.0" }, options);
    await client.connect(new StreamableHTTPClientTransport(server.url));
    try {
      expect(client.getServerCapabilities()?.extensions).toMatchObject({
        [audit.id]: { retentionDays: 30 },
      });
      const result = await client.request(
        { method: "audit/recent", params: { limit: 1 } },
        z.looseObject({ entries: z.array(z.string()) }),
      );
      expect(result.entries).toEqual(ENTRIES.slice(0, 1));
    } finally {
      await client.close();
    }
  });
});
