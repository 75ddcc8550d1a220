/**
 * MCP Apps across implementations, with `@modelcontextprotocol/ext-apps` 2.0.4 from the npm registry:
 *
 * - its server helpers (`registerAppTool`, `registerAppResource`) on an official 2.4.0 `McpServer`
 *   served on 127.0.0.1, read by a tsmcp `Client` that declares the extension, in both eras: the
 *   tool's link, the `ui://` resource checked by `readUiResource`, and the declaration as the
 *   server's `getUiCapability` sees it;
 * - its host (`AppBridge`, on an official client) and its app (`App`) against the tsmcp counter
 *   server of examples/apps: the app's tool call reaches the tsmcp server through the host.
 */
import { createServer, type Server as NodeHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import {
  InMemoryTransport,
  Client as OfficialClient,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { App } from "@modelcontextprotocol/ext-apps";
import { AppBridge, getToolUiResourceUri } from "@modelcontextprotocol/ext-apps/app-bridge";
import {
  EXTENSION_ID,
  getUiCapability,
  RESOURCE_MIME_TYPE,
  registerAppResource,
  registerAppTool,
} from "@modelcontextprotocol/ext-apps/server";
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  createMcpHandler,
  McpServer,
} from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { createCounterServer } from "../../examples/apps/counter.js";
import { Client } from "../../packages/tsmcp/src/client/index.js";
import {
  APPS_EXTENSION_ID,
  appsExtension,
  readUiResource,
  UI_RESOURCE_MIME_TYPE,
  uiResourceOf,
} from "../../packages/tsmcp/src/extensions/apps/index.js";
import { type HttpServerHandle, serve } from "../../packages/tsmcp/src/node/index.js";

const HTML = "<!DOCTYPE html><html><body><p>weather</p></body></html>";

/** What the official server's tool saw of the client's MCP Apps declaration, per call. */
const seen: unknown[] = [];
/** The capabilities of each `initialize` the official server received. */
const initialized: unknown[] = [];

function buildOfficialServer(): McpServer {
  const mcp = new McpServer({ name: "official-apps", version: "2.4.0" });
  registerAppResource(
    mcp,
    "weather-view",
    "ui://weather/view",
    { description: "The weather view" },
    async () => ({
      contents: [
        {
          uri: "ui://weather/view",
          mimeType: RESOURCE_MIME_TYPE,
          text: HTML,
          _meta: { ui: { csp: { connectDomains: ["https://api.example.com"] }, prefersBorder: false } },
        },
      ],
    }),
  );
  registerAppTool(
    mcp,
    "get_weather",
    {
      description: "The weather, with a view",
      inputSchema: z.object({ city: z.string() }),
      _meta: { ui: { resourceUri: "ui://weather/view", visibility: ["model", "app"] } },
    },
    async ({ city }, ctx) => {
      // At 2026-07-28 the request's own envelope declares the client's capabilities; on a 2025
      // session, its initialize did.
      const envelope = ctx.mcpReq.envelope as Record<string, ClientCapabilities | undefined> | undefined;
      seen.push(
        getUiCapability(envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? mcp.server.getClientCapabilities()),
      );
      return {
        content: [{ type: "text", text: `Sunny in ${city}` }],
        structuredContent: { city, sky: "sunny" },
      };
    },
  );
  return mcp;
}

let official: { url: URL; close(): Promise<void> };

beforeAll(async () => {
  const handler = createMcpHandler(() => buildOfficialServer());
  const listener = getRequestListener(
    async (request: Request) => {
      if (request.method === "POST") {
        const body = (await request.clone().json()) as {
          method?: string;
          params?: { capabilities?: unknown };
        };
        if (body.method === "initialize") initialized.push(body.params?.capabilities);
      }
      return handler.fetch(request);
    },
    { overrideGlobalObjects: false },
  );
  const http: NodeHttpServer = createServer((incoming, outgoing) => void listener(incoming, outgoing));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  official = {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    async close() {
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
});

afterAll(async () => {
  await official?.close();
});

describe("ext-apps' server helpers on the official server, read by a tsmcp Client", () => {
  it("agree on the extension id and the MIME type", () => {
    expect([EXTENSION_ID, RESOURCE_MIME_TYPE]).toEqual([APPS_EXTENSION_ID, UI_RESOURCE_MIME_TYPE]);
  });

  it.each(["2026-07-28", "legacy"] as const)(
    "the tool's link, the checked ui:// resource and the declared mimeTypes (%s)",
    async (protocolVersion) => {
      seen.length = 0;
      initialized.length = 0;
      const client = await Client.connect(official.url, {
        protocolVersion,
        extensions: [appsExtension],
      });
      try {
        expect(client.era).toBe(protocolVersion === "legacy" ? "legacy" : "modern");
        const { tools } = await client.listTools();
        const tool = tools.find((candidate) => candidate.name === "get_weather");
        expect(tool?._meta).toMatchObject({
          ui: { resourceUri: "ui://weather/view" },
          "ui/resourceUri": "ui://weather/view",
        });
        expect(uiResourceOf(tool!)).toEqual({
          resourceUri: "ui://weather/view",
          visibility: ["model", "app"],
        });
        const { resources } = await client.listResources();
        expect(resources).toContainEqual(
          expect.objectContaining({ uri: "ui://weather/view", mimeType: UI_RESOURCE_MIME_TYPE }),
        );
        const ui = await readUiResource(client, tool!);
        expect(ui).toMatchObject({
          uri: "ui://weather/view",
          html: HTML,
          ui: { csp: { connectDomains: ["https://api.example.com"] }, prefersBorder: false },
        });
        const result = await client.callTool("get_weather", { city: "Lyon" });
        expect(result.content).toEqual([{ type: "text", text: "Sunny in Lyon" }]);
        if (protocolVersion === "legacy") {
          // The stateless legacy fallback builds a server per request, which knows no session's
          // initialize: the declaration is checked where it was sent.
          expect(initialized).toEqual([
            expect.objectContaining({ extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } }),
          ]);
        } else {
          expect(initialized).toEqual([]);
          expect(seen).toEqual([{ mimeTypes: [RESOURCE_MIME_TYPE] }]);
        }
      } finally {
        await client.close();
      }
    },
  );
});

describe("ext-apps' host and app against a tsmcp server", () => {
  let tsmcp: HttpServerHandle;
  let counter: ReturnType<typeof createCounterServer>;

  beforeAll(async () => {
    counter = createCounterServer();
    tsmcp = await serve(counter.mcp, { host: "127.0.0.1", port: 0 });
  });

  afterAll(async () => {
    await tsmcp?.close();
    await counter?.mcp.close();
  });

  it("the host finds the tool's UI, and the app's tool call reaches the tsmcp server through AppBridge", async () => {
    const host = new OfficialClient(
      { name: "ext-apps-host", version: "1.0.0" },
      { capabilities: { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } } },
    );
    await host.connect(new StreamableHTTPClientTransport(tsmcp.url));
    const bridge = new AppBridge(host, { name: "ext-apps-host", version: "1.0.0" }, { serverTools: {} });
    const app = new App({ name: "counter-app", version: "1.0.0" }, {}, { autoResize: false });
    try {
      const { tools } = await host.listTools();
      const show = tools.find((tool) => tool.name === "show_counter");
      expect(getToolUiResourceUri(show!)).toBe("ui://counter/view");
      const read = await host.readResource({ uri: "ui://counter/view" });
      expect(read.contents[0]).toMatchObject({ uri: "ui://counter/view", mimeType: RESOURCE_MIME_TYPE });

      const [hostSide, appSide] = InMemoryTransport.createLinkedPair();
      const initialized = new Promise<void>((resolve) => {
        bridge.oninitialized = () => resolve();
      });
      await bridge.connect(hostSide);
      await app.connect(appSide);
      await initialized;
      expect(app.getHostVersion()).toEqual({ name: "ext-apps-host", version: "1.0.0" });

      const result = await app.callServerTool({ name: "increment", arguments: { by: 2 } });
      expect(result.structuredContent).toEqual({ count: 2 });
      expect(counter.calls()).toBe(1);
    } finally {
      await app.close();
      await bridge.close();
      await host.close();
    }
  });
});
