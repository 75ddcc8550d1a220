/**
 * A host's view of MCP Apps through the tsmcp Client: a tool's UI link (nested and flat keys,
 * visibility), the UI resource read and checked, and the extension declared with its mimeTypes.
 */
import { describe, expect, it } from "vitest";
import { testRequestStateSecurity } from "../../../../../test/helpers/request-state.js";
import { Client } from "../../client/client.js";
import { MCPServer } from "../../server/mcp/server.js";
import { Server } from "../../server/server.js";
import {
  isToolCallableByApp,
  isToolVisibleToModel,
  readUiResource,
  UiResourceError,
  uiResourceOf,
} from "./client.js";
import { appResource, appTool } from "./server.js";
import {
  APPS_EXTENSION_ID,
  appsClientCapabilities,
  appsExtension,
  HTML_APPS_CLIENT_SETTINGS,
} from "./wire.js";

const HTML = "<!DOCTYPE html><html><body>ünïcode</body></html>";

describe("uiResourceOf", () => {
  it("reads _meta.ui first, then the flat key, with the default visibility", () => {
    expect(
      uiResourceOf({ name: "a", _meta: { ui: { resourceUri: "ui://x/a", visibility: ["app"] } } }),
    ).toEqual({
      resourceUri: "ui://x/a",
      visibility: ["app"],
    });
    expect(uiResourceOf({ name: "b", _meta: { "ui/resourceUri": "ui://x/b" } })).toEqual({
      resourceUri: "ui://x/b",
      visibility: ["model", "app"],
    });
    expect(
      uiResourceOf({
        name: "c",
        _meta: { ui: { resourceUri: "ui://x/new" }, "ui/resourceUri": "ui://x/old" },
      }),
    ).toMatchObject({ resourceUri: "ui://x/new" });
    expect(uiResourceOf({ name: "d" })).toBeUndefined();
    expect(uiResourceOf({ name: "e", _meta: { ui: {} } })).toBeUndefined();
  });

  it("refuses a link that is not ui:// and a malformed _meta.ui", () => {
    expect(() => uiResourceOf({ name: "a", _meta: { ui: { resourceUri: "https://x" } } })).toThrow(
      UiResourceError,
    );
    expect(() => uiResourceOf({ name: "a", _meta: { "ui/resourceUri": 7 } })).toThrow(
      /not a ui:\/\/ resource/,
    );
    expect(() => uiResourceOf({ name: "a", _meta: { ui: { visibility: ["user"] } } })).toThrow(
      /malformed _meta\.ui/,
    );
  });

  it("tells who may see and call a tool", () => {
    const appOnly = { name: "a", _meta: { ui: { resourceUri: "ui://x/a", visibility: ["app" as const] } } };
    expect([isToolVisibleToModel(appOnly), isToolCallableByApp(appOnly)]).toEqual([false, true]);
    expect([isToolVisibleToModel({ name: "plain" }), isToolCallableByApp({ name: "plain" })]).toEqual([
      true,
      true,
    ]);
  });
});

describe("readUiResource", () => {
  it("reads the UI a tool links to, with its _meta.ui, and declares the extension with mimeTypes", async () => {
    const mcp = new MCPServer("apps", { requestStateSecurity: testRequestStateSecurity() });
    appResource(mcp, "ui://apps/view", { ui: { permissions: { clipboardWrite: {} } } }, HTML);
    let declared: unknown;
    appTool(mcp, "show", { ui: { resourceUri: "ui://apps/view" } }, (_args, ctx) => {
      declared = ctx.clientCapabilities.extensions?.[APPS_EXTENSION_ID];
      return "shown";
    });
    const client = await Client.connect(mcp, { extensions: [appsExtension] });
    expect(client.supportsExtension(appsExtension)).toBe(true);
    expect(client.serverExtensions[APPS_EXTENSION_ID]).toEqual({});
    const [tool] = (await client.listTools()).tools;
    const ui = await readUiResource(client, tool as NonNullable<typeof tool>);
    expect(ui).toEqual({
      uri: "ui://apps/view",
      mimeType: "text/html;profile=mcp-app",
      html: HTML,
      ui: { permissions: { clipboardWrite: {} } },
      _meta: { ui: { permissions: { clipboardWrite: {} } } },
    });
    await client.callTool("show");
    expect(declared).toEqual({ mimeTypes: ["text/html;profile=mcp-app"] });
    expect(HTML_APPS_CLIENT_SETTINGS).toEqual({ mimeTypes: ["text/html;profile=mcp-app"] });
  });

  it("decodes a base64 blob and checks the MIME type, the contents URI and the link", async () => {
    const contents: Record<string, unknown>[] = [];
    const server = new Server("raw", { onReadResource: () => ({ contents: contents.splice(0) as never }) });
    const client = await Client.connect(server, {});
    const blob = Buffer.from(HTML).toString("base64");
    contents.push({ uri: "ui://r/a", mimeType: "text/html;profile=mcp-app", blob });
    expect((await readUiResource(client, "ui://r/a")).html).toBe(HTML);
    contents.push({ uri: "ui://r/a", mimeType: "text/html", text: HTML });
    await expect(readUiResource(client, "ui://r/a")).rejects.toThrow(
      'UI resource ui://r/a has MIME type "text/html", not "text/html;profile=mcp-app"',
    );
    contents.push({ uri: "ui://r/other", mimeType: "text/html;profile=mcp-app", text: HTML });
    await expect(readUiResource(client, "ui://r/a")).rejects.toThrow(/answered no contents for that URI/);
    contents.push({ uri: "ui://r/a", mimeType: "text/html;profile=mcp-app", blob: "%%%" });
    await expect(readUiResource(client, "ui://r/a")).rejects.toThrow(/not base64/);
    contents.push({
      uri: "ui://r/a",
      mimeType: "text/html;profile=mcp-app",
      text: HTML,
      _meta: { ui: { domain: 1 } },
    });
    await expect(readUiResource(client, "ui://r/a")).rejects.toThrow(/malformed _meta\.ui/);
    await expect(readUiResource(client, "https://r/a")).rejects.toBeInstanceOf(UiResourceError);
    await expect(readUiResource(client, { name: "plain" })).rejects.toThrow(/links to no UI resource/);
  });

  it("declares other content types through settings, and refuses settings without mimeTypes", async () => {
    const mcp = new MCPServer("apps", { requestStateSecurity: testRequestStateSecurity() });
    let declared: unknown;
    mcp.tool("who", {}, (_args, ctx) => {
      declared = ctx.clientCapabilities.extensions?.[APPS_EXTENSION_ID];
      return "";
    });
    const settings = { mimeTypes: ["text/html;profile=mcp-app", "application/x-future"] };
    const client = await Client.connect(mcp, { extensions: [{ extension: appsExtension, settings }] });
    await client.callTool("who");
    expect(declared).toEqual(settings);
    // Without a UI resource, the server does not advertise the extension.
    expect(client.supportsExtension(appsExtension)).toBe(false);
    expect(() => appsClientCapabilities({} as never)).toThrow(TypeError);
    await expect(
      Client.connect(mcp, {
        extensions: [{ extension: appsExtension, settings: { mimeTypes: "html" } as never }],
      }),
    ).rejects.toThrow(TypeError);
    expect(appsClientCapabilities()).toEqual({
      extensions: { [APPS_EXTENSION_ID]: HTML_APPS_CLIENT_SETTINGS },
    });
  });
});
