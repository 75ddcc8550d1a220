/**
 * MCP Apps on an MCPServer: the `ui://` resource (MIME type, `_meta.ui` on the listing and the
 * contents), the tool's link (`_meta.ui` and the flat key), the text fallback, and the refusals at
 * registration.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { testRequestStateSecurity } from "../../../../../test/helpers/request-state.js";
import { Client } from "../../client/client.js";
import { MCPServer } from "../../server/mcp/server.js";
import { appResource, appTool } from "./server.js";
import {
  APPS_EXTENSION_ID,
  appsClientCapabilities,
  appsExtension,
  supportsApps,
  UI_RESOURCE_MIME_TYPE,
} from "./wire.js";

const HTML = "<!DOCTYPE html><html><body><p id=out>…</p></body></html>";

function server(): MCPServer {
  const mcp = new MCPServer("apps", { requestStateSecurity: testRequestStateSecurity() });
  appResource(
    mcp,
    "ui://apps/counter",
    { name: "counter", description: "A counter", ui: { csp: { connectDomains: [] }, prefersBorder: true } },
    HTML,
  );
  return mcp;
}

describe("appResource", () => {
  it("lists the ui:// resource with the MCP Apps MIME type and _meta.ui, and reads it back with both", async () => {
    const mcp = server();
    const client = await Client.connect(mcp, {});
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      {
        uri: "ui://apps/counter",
        name: "counter",
        description: "A counter",
        mimeType: UI_RESOURCE_MIME_TYPE,
        _meta: { ui: { csp: { connectDomains: [] }, prefersBorder: true } },
      },
    ]);
    const read = await client.readResource("ui://apps/counter");
    expect(read.contents).toEqual([
      {
        uri: "ui://apps/counter",
        mimeType: "text/html;profile=mcp-app",
        text: HTML,
        _meta: { ui: { csp: { connectDomains: [] }, prefersBorder: true } },
      },
    ]);
  });

  it("renders the HTML per read when given a function", async () => {
    const mcp = new MCPServer("apps", { requestStateSecurity: testRequestStateSecurity() });
    let reads = 0;
    appResource(mcp, "ui://apps/live", {}, () => `<p>${++reads}</p>`);
    const client = await Client.connect(mcp, {});
    expect((await client.readResource("ui://apps/live")).contents[0]).toMatchObject({ text: "<p>1</p>" });
    expect((await client.readResource("ui://apps/live")).contents[0]).toMatchObject({ text: "<p>2</p>" });
    expect((await client.readResource("ui://apps/live")).contents[0]).not.toHaveProperty("_meta");
  });

  it("advertises the extension once, also when the server registered it itself", async () => {
    const mcp = server();
    appResource(mcp, "ui://apps/second", {}, HTML);
    const client = await Client.connect(mcp, { protocolVersion: "legacy" });
    expect(client.serverExtensions).toEqual({ [APPS_EXTENSION_ID]: {} });
    const own = new MCPServer("own", { requestStateSecurity: testRequestStateSecurity() });
    own.extension(appsExtension, { settings: { note: "mine" }, handlers: {} });
    appResource(own, "ui://own/view", {}, HTML);
    expect((await Client.connect(own, {})).serverExtensions).toEqual({
      [APPS_EXTENSION_ID]: { note: "mine" },
    });
  });

  it("refuses what is not a static ui:// HTML resource, at registration", () => {
    const mcp = new MCPServer("apps", { requestStateSecurity: testRequestStateSecurity() });
    expect(() => appResource(mcp, "https://example.com/app", {}, HTML)).toThrow(
      /appResource: the URI must start with "ui:\/\/"/,
    );
    expect(() => appResource(mcp, "ui://", {}, HTML)).toThrow(TypeError);
    expect(() => appResource(mcp, "ui://apps/{id}", {}, HTML)).toThrow(/URI templates are not allowed/);
    expect(() => appResource(mcp, "ui://apps/a", { mimeType: "text/html" } as never, HTML)).toThrow(
      /drop mimeType/,
    );
    expect(() => appResource(mcp, "ui://apps/a", { ui: { prefersBorder: "yes" } } as never, HTML)).toThrow(
      /config\.ui is not a valid _meta\.ui/,
    );
    expect(() => appResource(mcp, "ui://apps/a", { _meta: { ui: {} } }, HTML)).toThrow(/through config\.ui/);
    expect(() => appResource(mcp, "ui://apps/a", {}, 42 as never)).toThrow(/html must be a string/);
    appResource(mcp, "ui://apps/a", {}, HTML);
    expect(() => appResource(mcp, "ui://apps/a", {}, HTML)).toThrow(/already registered/);
  });
});

describe("appTool", () => {
  it("links the tool with _meta.ui and the flat key, keeping its own _meta and visibility", async () => {
    const mcp = server();
    appTool(
      mcp,
      "count",
      {
        description: "Counts",
        inputSchema: z.object({ by: z.number() }),
        ui: { resourceUri: "ui://apps/counter" },
        _meta: { "com.example/owner": "ops" },
      },
      ({ by }) => `counted ${by}`,
    );
    appTool(mcp, "refresh", { ui: { resourceUri: "ui://apps/counter", visibility: ["app"] } }, () => "ok");
    const client = await Client.connect(mcp, {});
    const { tools } = await client.listTools();
    expect(tools.map((tool) => [tool.name, tool._meta])).toEqual([
      [
        "count",
        {
          "com.example/owner": "ops",
          ui: { resourceUri: "ui://apps/counter" },
          "ui/resourceUri": "ui://apps/counter",
        },
      ],
      [
        "refresh",
        {
          ui: { resourceUri: "ui://apps/counter", visibility: ["app"] },
          "ui/resourceUri": "ui://apps/counter",
        },
      ],
    ]);
  });

  it("stamps _meta.ui.resourceUri on the tool's results, keeping the handler's _meta, in both eras", async () => {
    const mcp = server();
    appTool(mcp, "count", { ui: { resourceUri: "ui://apps/counter" } }, () => ({
      content: [{ type: "text", text: "1" }],
      _meta: { "com.example/at": "now", ui: { extra: true } },
    }));
    mcp.tool("plain", {}, () => "plain");
    const removed = appTool(mcp, "gone", { ui: { resourceUri: "ui://apps/counter" } }, () => "");
    removed.remove();
    mcp.tool("gone", {}, () => "now plain");
    for (const protocolVersion of ["2026-07-28", "legacy"] as const) {
      const client = await Client.connect(mcp, { protocolVersion });
      const meta = (await client.callTool("count"))._meta;
      expect([meta?.["com.example/at"], meta?.ui]).toEqual([
        "now",
        { extra: true, resourceUri: "ui://apps/counter" },
      ]);
      expect((await client.callTool("plain"))._meta?.ui).toBeUndefined();
      expect((await client.callTool("gone"))._meta?.ui).toBeUndefined();
      await client.close();
    }
  });

  it("answers text content, the fallback of a client without the extension, and tells the handler who can render", async () => {
    const mcp = server();
    const seen: boolean[] = [];
    appTool(
      mcp,
      "stats",
      {
        outputSchema: z.object({ count: z.number() }),
        ui: { resourceUri: "ui://apps/counter" },
      },
      (_args, ctx) => {
        seen.push(supportsApps(ctx.clientCapabilities));
        return { count: 3 };
      },
    );
    const plain = await Client.connect(mcp, {});
    expect(await plain.callTool("stats")).toMatchObject({
      content: [{ type: "text", text: '{"count":3}' }],
      structuredContent: { count: 3 },
    });
    const host = await Client.connect(mcp, { capabilities: appsClientCapabilities() });
    await host.callTool("stats");
    expect(seen).toEqual([false, true]);
  });

  it("refuses a link that is not ui://, or to a resource not registered with appResource, at registration", () => {
    const mcp = server();
    mcp.resource("ui://apps/plain", { mimeType: UI_RESOURCE_MIME_TYPE }, () => HTML);
    const link = (resourceUri: string, visibility?: unknown) =>
      appTool(
        mcp,
        `t${Math.random().toString(36).slice(2, 8)}`,
        { ui: { resourceUri, visibility } as never },
        () => "",
      );
    expect(() => link("https://example.com/app")).toThrow(/ui\.resourceUri must be a "ui:\/\/" URI/);
    expect(() => link("ui://apps/missing")).toThrow(
      /ui:\/\/apps\/missing is not a UI resource of this server; register it with appResource first/,
    );
    expect(() => link("ui://apps/plain")).toThrow(TypeError);
    expect(() => link("ui://apps/counter", [])).toThrow(/ui\.visibility must list/);
    expect(() => link("ui://apps/counter", ["user"])).toThrow(/ui\.visibility must list/);
    expect(() => link("ui://apps/counter", ["app", "app"])).toThrow(/ui\.visibility must list/);
    expect(() =>
      appTool(
        mcp,
        "x",
        { ui: { resourceUri: "ui://apps/counter" }, _meta: { "ui/resourceUri": "ui://a" } },
        () => "",
      ),
    ).toThrow(/set _meta\.ui through config\.ui/);
    expect(() => appTool(mcp, "y", {} as never, () => "")).toThrow(/config\.ui must be/);
    const other = new MCPServer("other", { requestStateSecurity: testRequestStateSecurity() });
    expect(() => appTool(other, "z", { ui: { resourceUri: "ui://apps/counter" } }, () => "")).toThrow(
      /not a UI resource of this server/,
    );
  });

  it("forgets a removed UI resource: a later link to it is refused", () => {
    const mcp = new MCPServer("apps", { requestStateSecurity: testRequestStateSecurity() });
    appResource(mcp, "ui://apps/gone", {}, HTML).remove();
    expect(() => appTool(mcp, "t", { ui: { resourceUri: "ui://apps/gone" } }, () => "")).toThrow(
      /not a UI resource of this server/,
    );
  });
});
