/**
 * The counter app of examples/apps, rendered the way a web host renders an MCP App: a tsmcp server
 * on 127.0.0.1 serves the tool and its `ui://` resource; the host (a tsmcp Client that declares the
 * extension, plus a page in headless Chromium running ext-apps' AppBridge) reads the UI resource,
 * puts its HTML in a sandboxed iframe, and answers the view's `ui/initialize`; the view's button
 * calls a tool back through the host, and the page shows the result.
 * Spec: https://modelcontextprotocol.io/extensions/apps/overview.
 */
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Page } from "playwright-core";
import { appsExtension, isToolCallableByApp, readUiResource, uiResourceOf } from "tsmcp/apps";
import { Client } from "tsmcp/client";
import { serve } from "tsmcp/node";
import type { CallToolResult, Tool } from "tsmcp/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCounterServer } from "../../examples/apps/counter.js";
import { launchChromium, type RunningChromium } from "../helpers/chromium.js";

/** ext-apps' AppBridge and the host page's glue, bundled for the browser. */
async function hostPageScript(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL("./host-page.js", import.meta.url))],
    bundle: true,
    format: "iife",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}

describe("an MCP App in headless Chromium", () => {
  let chromium: RunningChromium;
  let script: string;

  beforeAll(async () => {
    [chromium, script] = await Promise.all([launchChromium(), hostPageScript()]);
  }, 600_000);

  afterAll(async () => {
    await chromium?.close();
  });

  it("renders the ui:// resource in a sandboxed iframe, and its button calls a tool on the server", async () => {
    const { mcp, calls } = createCounterServer();
    const server = await serve(mcp, { host: "127.0.0.1", port: 0 });
    const client = await Client.connect(server.url, { extensions: [appsExtension] });
    let page: Page | undefined;
    try {
      // The host's MCP side: the tools, the UI of the one the model called, and that call's result.
      const { tools } = await client.listTools();
      const tool = tools.find((candidate) => candidate.name === "show_counter") as Tool;
      expect(uiResourceOf(tool)).toEqual({ resourceUri: "ui://counter/view", visibility: ["model", "app"] });
      const ui = await readUiResource(client, tool);
      expect(ui.html).toContain("ui/initialize");
      const shown = await client.callTool("show_counter");
      expect(shown.structuredContent).toEqual({ count: 0 });

      page = await chromium.context.newPage();
      const refused: string[] = [];
      // The view's tools/call, forwarded by the host to the server, for tools the app may call only.
      await page.exposeFunction(
        "hostCallTool",
        async (params: { name: string; arguments?: Record<string, unknown> }) => {
          const target = tools.find((candidate) => candidate.name === params.name);
          if (target === undefined || !isToolCallableByApp(target)) {
            refused.push(params.name);
            throw new Error(`tool ${params.name} is not callable by the app`);
          }
          return (await client.callTool(params.name, params.arguments ?? {})) satisfies CallToolResult;
        },
      );
      await page.exposeFunction("hostLog", () => {});
      await page.setContent("<!DOCTYPE html><html><head><title>host</title></head><body></body></html>");
      await page.addScriptTag({ content: script });
      await page.evaluate(
        (args) => (globalThis as unknown as { renderApp(a: unknown): Promise<void> }).renderApp(args),
        {
          html: ui.html,
          ui: ui.ui,
          tool,
          toolArguments: {},
          toolResult: shown,
        },
      );

      const view = page.frameLocator("#view");
      // The host handed the view the call's result after ui/initialize: the first render.
      await view.locator("#count", { hasText: /^0$/ }).waitFor();
      expect(calls()).toBe(0);
      // The view is sandboxed: scripts run, but in an opaque origin cut off from the host page.
      const frame = page.frames().find((candidate) => candidate !== page?.mainFrame());
      expect(await frame?.evaluate(() => (globalThis as unknown as { origin: string }).origin)).toBe("null");

      await view.locator("#increment").click();
      await view.locator("#count", { hasText: /^1$/ }).waitFor();
      expect(calls()).toBe(1);
      await view.locator("#increment").click();
      await view.locator("#count", { hasText: /^2$/ }).waitFor();
      expect(calls()).toBe(2);
      expect(refused).toEqual([]);
      expect(await view.locator("#status").textContent()).toBe("");
    } finally {
      await page?.close();
      await client.close();
      await server.close();
      await mcp.close();
    }
  }, 120_000);
});
